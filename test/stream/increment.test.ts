import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forEachLine, type ReadMark, readIncrement, releaseRead } from '../../src/stream/index.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

function lines(increment: NonNullable<ReturnType<typeof readIncrement>>): [number, string][] {
  const seen: [number, string][] = [];
  forEachLine(increment.bytes, increment.parseFrom, increment.firstLine, (line, text) =>
    seen.push([line, text]),
  );
  return seen;
}

describe('readIncrement', () => {
  it('reads only what a file gained, numbering lines on', () => {
    const path = join(tempDir(), 'a.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}\n');
    const first = readIncrement(path, undefined)!;
    expect(lines(first)).toEqual([
      [1, '{"n":1}'],
      [2, '{"n":2}'],
    ]);
    appendFileSync(path, '{"n":3}\n');
    const second = readIncrement(path, first.mark)!;
    expect(second.restarted).toBe(false);
    expect(second.start).toBe(16);
    expect(lines(second)).toEqual([[3, '{"n":3}']]);
    expect(readIncrement(path, second.mark)).toBeNull();
  });

  it('reads into the memory of a read given back, and only into memory given back', () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, `${'{"n":"aaaa"}\n'.repeat(100)}`);
    writeFileSync(b, '{"n":"b"}\n');
    const first = readIncrement(a, undefined)!;
    const held = readIncrement(b, undefined)!;
    // Still held: a read made meanwhile gets memory of its own.
    expect(held.bytes.buffer).not.toBe(first.bytes.buffer);
    releaseRead(first.bytes);
    releaseRead(first.bytes);
    const again = readIncrement(b, undefined)!;
    expect(again.bytes.buffer).toBe(first.bytes.buffer);
    // Only the file's bytes, none of what the memory held before.
    expect(again.bytes.toString()).toBe('{"n":"b"}\n');
    expect(lines(again)).toEqual([[1, '{"n":"b"}']]);
    // Given back twice, it was pooled once: the next read cannot share it with the one holding it now.
    expect(readIncrement(a, undefined)!.bytes.buffer).not.toBe(again.bytes.buffer);
    // Bytes not in shared memory are left alone: a read still gets shared memory, for the workers.
    releaseRead(Buffer.alloc(1 << 20));
    expect(readIncrement(b, undefined)!.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('leaves a truncated last line for later and takes it once complete', () => {
    const path = join(tempDir(), 'b.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":');
    const first = readIncrement(path, undefined)!;
    expect(lines(first)).toEqual([[1, '{"n":1}']]);
    appendFileSync(path, '2}\n');
    const second = readIncrement(path, first.mark)!;
    expect(lines(second)).toEqual([[2, '{"n":2}']]);
  });

  it('reads from the start when the part already read has changed', () => {
    const path = join(tempDir(), 'c.jsonl');
    writeFileSync(path, '{"n":1}\n');
    const first = readIncrement(path, undefined)!;
    writeFileSync(path, '{"n":9}\n{"n":2}\n');
    const second = readIncrement(path, first.mark)!;
    expect(second.restarted).toBe(true);
    expect(lines(second)).toEqual([
      [1, '{"n":9}'],
      [2, '{"n":2}'],
    ]);
  });

  it('numbers lines the same whether a final line without newline was read early or late', () => {
    const path = join(tempDir(), 'd.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}');
    const first = readIncrement(path, undefined)!;
    expect(lines(first)).toEqual([
      [1, '{"n":1}'],
      [2, '{"n":2}'],
    ]);
    appendFileSync(path, '\n{"n":3}\n');
    const second = readIncrement(path, first.mark as ReadMark)!;
    expect(lines(second)).toEqual([[3, '{"n":3}']]);
  });
});

describe('readIncrement and long lines', () => {
  it('leaves an open last line past the limit unread, and names it; the complete lines before are read', () => {
    const path = join(tempDir(), 'long.jsonl');
    writeFileSync(path, `{"n":1}\n{"n":"${'x'.repeat(100)}`);
    const first = readIncrement(path, undefined, { maxLineBytes: 50 })!;
    expect(lines(first)).toEqual([[1, '{"n":1}']]);
    expect(first.bytes.length).toBe(8);
    expect(first.openLine).toEqual({ line: 2, bytes: 106 });
    const within = readIncrement(path, undefined, { maxLineBytes: 500 })!;
    expect(within.openLine).toBeUndefined();
  });

  it('hands a complete line past the limit to the skipper with its size, unread', () => {
    const bytes = Buffer.from(`{"n":1}\n${'y'.repeat(60)}\n{"n":3}\n`);
    const seen: number[] = [];
    const skipped: [number, number][] = [];
    forEachLine(bytes, 0, 0, (line) => seen.push(line), {
      maxBytes: 50,
      skip: (line, size) => skipped.push([line, size]),
    });
    expect(seen).toEqual([1, 3]);
    expect(skipped).toEqual([[2, 60]]);
  });
});
