export { createMcpServer, INSTRUCTIONS, type McpDeps, projectForMcp } from './server.ts';
