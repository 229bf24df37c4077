/**
 * The hashed space's speed, and what linkage by sums saves sleep. Figures are ratios to a floor
 * measured in the same run: `toLowerCase().split(/\s+/)` over the same texts, and brute-force linkage.
 */
import { seeded } from '../src/core/index.ts';
import { cosine, hashedVector, normalize, VectorSum } from '../src/embed/index.ts';

const DIMS = 256;

const openings = [
  'The build failed because',
  'I was wrong about this:',
  "No, that's not what I asked —",
  'Turns out',
  'The tests still fail after the change, since',
  'Stop asking me and just',
  'Interesting, the hook did not block, because',
  'That migration broke production when',
];
const middles = [
  '`npm ci` could not find package-lock.json in the workspace root',
  'the database URL points at the staging cluster instead of localhost:5432',
  'the service worker cached an old bundle and served it after the deploy',
  'TypeScript resolves the .ts extension only with allowImportingTsExtensions turned on',
  'the cron job runs at 4 am in UTC, not in the local timezone of the server',
  'PowerShell does not understand && so the second command never ran',
  'you edited the generated file instead of the template it comes from',
  'the API returns 401 whenever the token is older than one hour',
];
const endings = ['.', ', please fix it.', ' — check the logs first.', '; I had assumed otherwise.', '!'];
const others = [
  '这个不对，你改错了文件，应该修改配置而不是代码。',
  '实际上，更可能的原因是缓存没有清除。',
  'Это не работает после обновления, верни старую версию.',
  "En fait, l'erreur vient du fichier de configuration, pas du code.",
  'No funciona, el servidor devuelve un error 500 cuando guardo el formulario.',
  'そのコードは動きません。設定ファイルを確認してください。',
  'โค้ดนี้ไม่ถูกต้อง กรุณาแก้ไขไฟล์ตั้งค่า',
  'यह कोड काम नहीं करता, कृपया फिर से जाँचें।',
];

function sentences(count: number): string[] {
  const random = seeded(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, () =>
    random() < 0.2 ? pick(others) : `${pick(openings)} ${pick(middles)}${pick(endings)}`,
  );
}

/** Seconds per call of `work`: the best of several rounds, each long enough to time. */
function time(work: () => unknown, rounds = 7): number {
  work();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    let calls = 0;
    const started = performance.now();
    let elapsed = 0;
    do {
      work();
      calls++;
      elapsed = performance.now() - started;
    } while (elapsed < 50);
    best = Math.min(best, elapsed / 1000 / calls);
  }
  return best;
}

function unitVectors(count: number, seed: number): Float32Array[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => normalize(Array.from({ length: DIMS }, () => random() * 2 - 1)));
}

const format = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export async function run(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 3000);
  const texts = sentences(count);

  const floor = time(() => texts.map((text) => text.toLowerCase().split(/\s+/)));
  const hashed = time(() => texts.map((text) => hashedVector(text, DIMS)));
  console.log(`hashed space, ${format(count)} sentences (a fifth not in English), ${DIMS} dims`);
  console.log(`  embeddings per second   ${format(count / hashed)}`);
  console.log(`  floor (lower + split)   ${format(count / floor)} texts per second`);
  console.log(`  cost against the floor  ${format(hashed / floor, 1)}×`);

  const n = 1000;
  const a = unitVectors(n, 1);
  const b = unitVectors(n, 2);
  let bruteBetween = 0;
  let bruteWithin = 0;
  let sumsBetween = 0;
  let sumsWithin = 0;
  const between = time(() => {
    let total = 0;
    for (const x of a) for (const y of b) total += cosine(x, y);
    bruteBetween = total / (n * n);
  }, 3);
  const within = time(() => {
    let total = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) total += cosine(a[i]!, a[j]!);
    bruteWithin = total / ((n * (n - 1)) / 2);
  }, 3);
  // The sums are built inside the timing: sleep builds them once per night.
  const byBetween = time(() => {
    sumsBetween = VectorSum.of(a).linkageTo(VectorSum.of(b));
  });
  const byWithin = time(() => {
    sumsWithin = VectorSum.of(a).linkageWithin();
  });
  console.log(
    `\naverage linkage, n = ${format(n)} unit vectors a set, ${DIMS} dims (sums built inside the timing)`,
  );
  console.log(
    `  between two sets  brute ${format(between * 1000, 1)} ms, by sums ${format(byBetween * 1000, 2)} ms`,
  );
  console.log(
    `                    speed-up ${format(between / byBetween)}×, |difference| ${Math.abs(bruteBetween - sumsBetween).toExponential(1)}`,
  );
  console.log(
    `  within one set    brute ${format(within * 1000, 1)} ms, by sums ${format(byWithin * 1000, 2)} ms`,
  );
  console.log(
    `                    speed-up ${format(within / byWithin)}×, |difference| ${Math.abs(bruteWithin - sumsWithin).toExponential(1)}`,
  );
}
