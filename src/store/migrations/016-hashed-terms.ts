/**
 * The hashed space leaves out function words (`embed/hashed.ts`): a vector stored in it before is of other terms
 * and would meet the new ones at the wrong cosines. They are dropped with the sums made of them; the next night
 * embeds the episodes and lessons again, which in the hashed space costs microseconds each.
 */
export const sql = `
  DELETE FROM lesson_sums WHERE space = 'hashed';
  DELETE FROM vectors WHERE space = 'hashed';
`;
