export { findLesson, forget } from './forget.ts';
