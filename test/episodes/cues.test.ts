import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as cues from '../../src/episodes/cues.ts';
import {
  classifyAnswer,
  classifyFailure,
  classifyHandback,
  concedes,
  decidingRule,
  detectCorrection,
  detectSurprise,
  matchesGroup,
  needsPerson,
  normalizeText,
  ruleCorrection,
  ruleFailure,
  statesHouseRule,
} from '../../src/episodes/detect.ts';
import { correctionFit, correctionThreshold } from '../../src/episodes/model/correction.ts';
import {
  crossValidate,
  examplesOf,
  nestedCrossValidate,
  tally,
} from '../../src/episodes/model/cross-validate.ts';
import { curve } from '../../src/episodes/model/fit.ts';
import { type LabelledHandback, readLabelledMessages } from '../../src/episodes/model/labelled.ts';
import { chooseOptions, messageContext, trainables } from '../../src/episodes/training.ts';
import {
  type DetectorName,
  detectorNames,
  figuresOf,
  findDataDir,
  formatTable,
  hasData,
  repoRoot,
  type ScoredRow,
  scoreAll,
  subtypeAccuracy,
} from './score.ts';

const dataDir = findDataDir();
const withData = hasData(dataDir);
if (!withData)
  console.warn(`cues: no labelled data in ${dataDir} (set REMEM_DATA_DIR); skipping the P/R gates`);

/**
 * The rule-only detectors' guards on the rows their rules were written from: in-sample, so they only keep a
 * rule from breaking; what the detectors are worth on new rows is the bench's out-of-fold figures.
 */
const floors = { en: { precision: 0.9, recall: 0.85 }, all: { precision: 0.85, recall: 0.75 } };

describe.skipIf(!withData)('the correction detector, out-of-fold (grouped by repository)', () => {
  it('the committed weights are what npm run train writes from the data', () => {
    const out = mkdtempSync(join(tmpdir(), 'remem-train-'));
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/train.ts', '--data', dataDir, '--out', out], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    for (const { detector } of trainables.filter((spec) => spec.shipped)) {
      const committed = join(repoRoot, 'src', 'episodes', 'model', `${detector}.json`);
      expect(
        readFileSync(join(out, `${detector}.json`), 'utf8') === readFileSync(committed, 'utf8'),
        detector,
      ).toBe(true);
    }
    rmSync(out, { recursive: true, force: true });
  }, 60_000);

  it('on rows neither the rules nor the threshold were written from, it finds more than the rules at their precision', () => {
    const rows = readLabelledMessages(dataDir);
    const dims = 1 << 14;
    const examples = examplesOf(rows, messageContext, dims);
    const scored = crossValidate(rows, examples, { ...correctionFit(), dims, folds: 5 }).filter(
      ({ row }) => row.set !== 'batch1',
    );
    const ruled = scored.map(({ row }) => ruleCorrection(row.said, row.before) !== null);
    const deciding = scored.map(({ row }) => decidingRule(row.said, row.before) !== null);
    const at = (take: (i: number) => boolean) =>
      curve(
        scored.map(({ positive }, i) => ({ score: take(i) ? 1 : 0, positive })),
        [1],
      )[0]!;
    const rules = at((i) => ruled[i]!);
    const shipped = at((i) => deciding[i]! || scored[i]!.score >= correctionThreshold());
    expect(shipped.precision).toBeGreaterThanOrEqual(0.75);
    expect(shipped.precision).toBeGreaterThanOrEqual(rules.precision - 0.02);
    expect(shipped.recall).toBeGreaterThanOrEqual(rules.recall + 0.05);
  });
});

describe.skipIf(!withData)('the failure detector, out-of-fold (nested, grouped by repository)', () => {
  const spec = trainables.find((t) => t.detector === 'failure')!;
  const rows = withData ? spec.read(dataDir) : [];
  const side = spec.rules(rows);
  const { scored } = withData
    ? nestedCrossValidate(rows, spec.examples(rows, spec.dims), side, chooseOptions(spec))
    : { scored: [] };
  const figures = (keep: (set: string) => boolean, hit: readonly boolean[]) => {
    const kept = rows.flatMap((row, i) => (keep(row.set) ? [i] : []));
    return tally(
      kept.map((i) => rows[i]!.positive),
      kept.map((i) => hit[i]!),
    );
  };

  it('tells the agent’s mistakes from the environment’s on more than eight rows in ten', () => {
    // Measured: accuracy 0.90, precision 0.92, recall 0.90 (the rules alone, in-sample on the first batch: 0.94).
    const model = figures(
      () => true,
      scored.map((s) => s.detected),
    );
    expect(model.accuracy).toBeGreaterThanOrEqual(0.85);
    expect(model.precision).toBeGreaterThanOrEqual(0.82);
    expect(model.recall).toBeGreaterThanOrEqual(0.85);
  });

  it('on the second batch it is right on more than eight rows in ten, each fold judged by a model fitted without it', () => {
    // Measured: accuracy 0.84, precision 0.82, recall 0.78. The rules gained the harnesses' own refusals after the
    // second batch's misses were read, so their figure there (0.86, was 0.50) is no longer one on unseen rows.
    const model = figures(
      (set) => set === 'batch2',
      scored.map((s) => s.detected),
    );
    expect(model.accuracy).toBeGreaterThanOrEqual(0.8);
    expect(model.precision).toBeGreaterThanOrEqual(0.75);
  });
});

describe.skipIf(!withData)('the offer detector, out-of-fold (nested, grouped by repository)', () => {
  const spec = trainables.find((t) => t.detector === 'handback')!;
  const rows = withData ? (spec.read(dataDir) as LabelledHandback[]) : [];
  const side = spec.rules(rows);
  const { scored } = withData
    ? nestedCrossValidate(rows, spec.examples(rows, spec.dims), side, chooseOptions(spec))
    : { scored: [] };
  const model = scored.map((s) => s.detected);
  const figures = (keep: (set: string) => boolean, hit: readonly boolean[]) => {
    const kept = rows.flatMap((row, i) => (keep(row.set) ? [i] : []));
    const waiting = kept.filter((i) => rows[i]!.subtype === 'waiting');
    return {
      ...tally(
        kept.map((i) => rows[i]!.positive),
        kept.map((i) => hit[i]!),
      ),
      waiting: waiting.filter((i) => hit[i]).length / waiting.length,
    };
  };

  // The model vets the rules' offers. Before the rules read relative clauses and pleasantries apart, it was the more
  // precise of the two on every set (all rows P 0.91 against 0.87; the second batch, unseen by the rules then,
  // 0.64 against 0.56). Those rule changes were written after reading the second batch's misreadings, so the rules
  // are now in-sample there and on the first batch; what these tests hold is that vetting costs no precision and
  // reminds no more waiting replies.
  it('reminds on offers as precisely as the rules, and on no more replies that wait for the person', () => {
    // Measured: P 0.95 R 0.81, 1 of 39 waiting replies (the rules: P 0.95 R 0.86, 1 of 39).
    const all = () => true;
    const learned = figures(all, model);
    const rules = figures(all, side.ruled);
    expect(learned.precision).toBeGreaterThanOrEqual(0.85);
    expect(learned.recall).toBeGreaterThanOrEqual(0.65);
    expect(learned.waiting).toBeLessThan(0.05);
    expect(learned.precision).toBeGreaterThanOrEqual(rules.precision - 0.02);
    expect(learned.waiting).toBeLessThanOrEqual(rules.waiting);
  });

  it('on the second batch, it holds the issue’s figures less 0.10 and reminds no waiting reply', () => {
    // Measured: P 0.91 R 0.63, none of 16 waiting replies (the rules: P 0.92 R 0.69, none).
    const second = (set: string) => set === 'batch2';
    const learned = figures(second, model);
    const rules = figures(second, side.ruled);
    expect(learned.precision).toBeGreaterThanOrEqual(0.75);
    expect(learned.recall).toBeGreaterThanOrEqual(0.5);
    expect(learned.waiting).toBeLessThanOrEqual(rules.waiting);
    expect(learned.waiting).toBe(0);
  });
});

describe.skipIf(!withData)('precision and recall on the labelled data (in-sample guards)', () => {
  const scored = withData ? scoreAll(dataDir) : ({} as Record<DetectorName, ScoredRow[]>);
  if (withData) console.log(`\n${formatTable(scored)}\n`);

  for (const name of detectorNames.filter((detector) => detector !== 'correction')) {
    it(`${name}: English rows clear P ${floors.en.precision}, R ${floors.en.recall}`, () => {
      const figures = figuresOf(scored[name].filter((row) => row.lang === 'en'));
      expect(figures.precision).toBeGreaterThanOrEqual(floors.en.precision);
      expect(figures.recall).toBeGreaterThanOrEqual(floors.en.recall);
    });
    it(`${name}: all rows clear P ${floors.all.precision}, R ${floors.all.recall}`, () => {
      const figures = figuresOf(scored[name]);
      expect(figures.precision).toBeGreaterThanOrEqual(floors.all.precision);
      expect(figures.recall).toBeGreaterThanOrEqual(floors.all.recall);
    });
  }

  it('reports the hand-back subtype of most hand-backs it finds', () => {
    const { right, of } = subtypeAccuracy(scored.handback);
    expect(right / of).toBeGreaterThan(0.75);
  });

  it('every example a rule set cites is a labelled row its group matches', () => {
    const rows = new Map<string, Record<string, string>>();
    for (const file of ['messages', 'handbacks', 'tool_failures', 'surprises']) {
      for (const line of readFileSync(join(dataDir, `${file}.jsonl`), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const row = JSON.parse(line) as Record<string, string>;
        rows.set(row['id'] ?? '', row);
      }
    }
    const fields = ['said', 'agent_before', 'reply_tail', 'text', 'input_summary', 'error_first_lines'];
    const unmatched: string[] = [];
    for (const set of Object.values(cues).filter(
      (value): value is cues.RuleSet => 'groups' in Object(value),
    )) {
      for (const group of set.groups) {
        for (const id of group.examples) {
          const row = rows.get(id);
          const texts = fields.map((field) => row?.[field] ?? '').filter((text) => text !== '');
          if (!texts.some((text) => matchesGroup(group, text)))
            unmatched.push(`${set.name}/${group.lang}: ${id}`);
        }
      }
    }
    expect(unmatched).toEqual([]);
  });
});

describe('normalizeText', () => {
  it('straightens curly apostrophes and quotes, folds full-width punctuation and collapses whitespace', () => {
    expect(normalizeText('It Doesn’t  “Work”\n\tＯＫ？')).toBe('it doesn\'t "work" ok?');
  });
  it('spells out phone typing so it cannot hide a cue', () => {
    expect(normalizeText('dont do that, thats wrong, u broke it')).toBe(
      "don't do that, that's wrong, you broke it",
    );
  });
});

describe('detectCorrection', () => {
  const claimed = 'I updated the component. The list should now render correctly.';

  it('reads what the agent was to do and did not, and work it undid', () => {
    for (const said of [
      'you were supposed to keep the old endpoint',
      'I thought you already ran the migrations',
      'the login was working before your change',
      'that made it worse, now the page is empty',
      'something is very wrong with the sidebar',
    ])
      expect(ruleCorrection(said, claimed), said).not.toBeNull();
    expect(ruleCorrection('I thought about it and we can ship on Monday', claimed)).toBeNull();
  });

  it('reads curly apostrophes and phone typing alike', () => {
    expect(detectCorrection('it doesn’t work', claimed)).not.toBeNull();
    expect(detectCorrection('it doesnt work', claimed)).not.toBeNull();
    expect(detectCorrection('dont do that', claimed)).not.toBeNull();
    expect(detectCorrection('thats wrong', claimed)).not.toBeNull();
  });

  it('finds a correction in the middle of a long message', () => {
    const said = `${'Here is some context about the deployment and the services we run. '.repeat(8)}
      But I said use pnpm, not npm. ${'After that, please look at the logging setup as well. '.repeat(6)}`;
    expect(detectCorrection(said, claimed)?.rule).toBe('CORRECTION_ANYWHERE');
  });

  it('counts Claude Code interrupts and refused tool calls', () => {
    expect(detectCorrection('[Request interrupted by user]', claimed)?.rule).toBe('INTERRUPTION');
    expect(detectCorrection('[Request interrupted by user for tool use]')?.rule).toBe('INTERRUPTION');
    const refusal =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
    expect(detectCorrection(refusal)?.rule).toBe('INTERRUPTION');
  });

  it('does not count interrupting one’s own prompt before the agent did anything', () => {
    expect(detectCorrection('[Request interrupted by user]', '')).toBeNull();
  });

  it('reads a message that opens by forbidding what the agent just did, unless it answers the agent', () => {
    const acted = 'I added docstrings to every spec. Running the tests now.';
    for (const said of [
      "Please don't write docstrings in specs, they repeat the describe blocks",
      "don't say in the commit message that we dropped the dependency",
      'Do not touch the generated files',
    ]) {
      expect(detectCorrection(said, acted)?.rule, said).toBe('FORBIDDING');
    }
    // An answer to the agent's question or offer, a reassurance, or a constraint inside a new request: the rules
    // leave them to the learned detector.
    for (const [said, before] of [
      ['Do not change the contents, only reorder', 'Which sections should I move?'],
      ["don't commit yet", 'Done. Want me to commit this?'],
      ["don't worry about the tests for now", acted],
      ['Add a settings page. Do not use any new dependency.', acted],
    ] as const) {
      expect(ruleCorrection(said, before), said).toBeNull();
    }
  });

  it('tells a correction that states a rule of the house from one about this task, whichever rule found it', () => {
    for (const said of [
      'please use p-retry, we already depend on it',
      'always store timestamps in UTC',
      'we never use axios here, use the built-in fetch',
      'no, use pnpm not npm: this repo is a pnpm workspace',
      'please use pnpm, not npm — this repo has a pnpm lockfile',
      'no, this project uses uv, not pip',
      'no, use uv run, not python',
      "that's wrong. Please don't write docstrings in specs",
    ]) {
      expect(statesHouseRule(said), said).toBe(true);
    }
    for (const said of [
      'it still fails with the same error',
      "that's not what I asked, revert it",
      'stop the dev server and start it again with --inspect',
      // A question states no rule.
      "Don't you think we should refactor now?",
      'always with uv, even for scripts?',
    ]) {
      expect(statesHouseRule(said), said).toBe(false);
    }
  });

  it('reads corrections in other languages', () => {
    for (const said of [
      '还是不行',
      'ça ne marche pas',
      'no funciona',
      'не работает',
      'nadal nie działa',
      'まだ動かない',
    ]) {
      expect(detectCorrection(said, claimed), said).not.toBeNull();
    }
  });

  it('leaves new requests, approvals and answers alone', () => {
    for (const said of ['add a dark mode toggle', 'great, now add tests', 'yes please', '好的，继续']) {
      expect(detectCorrection(said, claimed), said).toBeNull();
    }
    // A constraint on what comes next is a request when the agent asked what to do; said right after the agent
    // claimed it was done, the same words hold it to what it did (as "named exports only please" does).
    expect(
      detectCorrection('Do not change the contents, only reorder', 'Which sections should I move?'),
    ).toBeNull();
    expect(detectCorrection('no thanks', 'Done. Want me to add tests too?')).toBeNull();
    expect(detectCorrection('no, it is still blank', 'Does it show up now?')).not.toBeNull();
  });

  it('reads a correction in Turkish, Indonesian, Vietnamese and Dutch, and what does not happen in three more, and the next request after praise is not one', () => {
    for (const [said, before] of [
      ['Hâlâ çalışmıyor, aynı hata.', 'Düzelttim, artık çalışmalı.'],
      ['Bunu istemedim, eski haline getir.', 'Butonu sayfanın üstüne taşıdım.'],
      ['Bukan itu yang saya minta.', 'Saya sudah menambahkan tombol baru di halaman utama.'],
      ['Masih error yang sama.', 'Sudah diperbaiki, sekarang seharusnya berfungsi.'],
      ['Vẫn lỗi như cũ.', 'Đã sửa xong, bây giờ sẽ chạy.'],
      ['Het werkt nog steeds niet.', 'Opgelost, het zou nu moeten werken.'],
      ['Dat is niet wat ik vroeg.', 'Ik heb een nieuwe knop aan de pagina toegevoegd.'],
      ['Le doy click y no me abre el modal.', 'Listo, ahora debería funcionar.'],
      ['Clico no botão e não abre nada.', 'Corrigido, agora deve funcionar.'],
      ['ボタンを押しても保存されない。', '修正しました。これで動くはずです。'],
    ]) {
      expect(ruleCorrection(said!, before), said).not.toBeNull();
      expect(detectCorrection(said!, before), said).not.toBeNull();
    }
    for (const [said, before] of [
      ['Harika, şimdi giriş sayfasını ekle.', 'Düzelttim, artık çalışmalı.'],
      ['Bagus, sekarang tambahkan halaman login.', 'Sudah berhasil.'],
      ['Mooi, voeg nu de inlogpagina toe.', 'Opgelost, het zou nu moeten werken.'],
    ])
      expect(detectCorrection(said!, before), said).toBeNull();
  });

  it('reads the agent conceding a correction in more languages, and not a reply that goes on with the work', () => {
    for (const reply of [
      'Hai ragione, ho modificato il file sbagliato.',
      'Masz rację, zmieniłem zły plik.',
      '맞습니다, 제가 잘못된 파일을 수정했습니다.',
      'Anda benar, saya mengubah file yang salah.',
      'Bạn nói đúng, tôi đã sửa nhầm tệp.',
      'Je hebt gelijk, ik heb het verkeerde bestand aangepast.',
    ])
      expect(concedes(reply), reply).not.toBeNull();
    expect(concedes('Ik heb de knop toegevoegd. Je hebt gelijk dat het mooier is.')).toBeNull();
  });

  it('reads a bare error log right after the agent claimed success, and not Cursor’s quick-fix template', () => {
    const log =
      'TypeError: Cannot read properties of undefined\n    at render (src/App.tsx:12:5)\n    at main (src/index.ts:3:1)';
    expect(detectCorrection(log, claimed)?.rule).toBe('ERROR_OUTPUT');
    expect(detectCorrection(log, 'Here is how the command works.')).toBeNull();
    const template =
      'For the code present, we get this error:\n```\nUnexpected any.\n```\nHow can I resolve this?';
    expect(detectCorrection(template, claimed)).toBeNull();
  });
});

describe('classifyHandback', () => {
  /** Each closing reads as an offer. */
  const expectOffers = (closings: readonly string[]) => {
    for (const closing of closings) expect(classifyHandback(closing)?.kind, closing).toBe('offer');
  };

  it('lets the last cue in the closing decide', () => {
    expect(classifyHandback('Done. Want me to wire it into the CLI next?')?.kind).toBe('offer');
    expect(classifyHandback('Would you like to add `main.py` to the chat?')?.kind).toBe('waiting');
    expect(classifyHandback('Which approach do you prefer?')?.kind).toBe('question');
    expect(classifyHandback('Would you like me to make any adjustments to this implementation?')).toBeNull();
    expect(classifyHandback('Want me to check the logs? Let me run the tests first.')).toBeNull();
  });

  it('reads leave asked for the agent’s own next step, and an open question about what the person wants is not one', () => {
    expectOffers([
      'The schema is in place. Should we commit this cleanup?',
      'All three tables are migrated.\n\nReady to proceed with the tournament data models?',
      'That overlap looks like a date ordering problem. Want to investigate that one next?',
      'The plan is written to tfplan. When ready, let me know and I’ll run `terraform apply`.',
      'Quedan las notas sin user_id. ¿Aplico el mismo patrón ahí?',
      'この方針で実装を進めますか？',
      'Os testes passam. Quer que eu remova as dependências antigas?',
      'Testler geçti. Eski bağımlılıkları da kaldırayım mı?',
    ]);
    expect(classifyHandback('Should we keep the cache or drop it?')?.kind).toBe('question');
    expect(classifyHandback('Everything is committed. What would you like to work on today?')).toBeNull();
    expect(classifyHandback('Estou ouvindo. O que você quer que eu faça?')).toBeNull();
  });

  it('reads offers as other languages ask them, and an open question or a request to choose is not one', () => {
    expectOffers([
      'Die Tests laufen durch. Soll ich die alte Konfiguration auch entfernen?',
      'Wenn du willst, kann ich noch einen Test dafür schreiben.',
      '테스트가 통과했습니다. 이전 설정 파일도 삭제할까요?',
      'Semua tes lulus. Mau saya hapus konfigurasi lama juga?',
      'Jika Anda mau, saya bisa menambahkan tes untuk kasus ini.',
      'Tất cả đã chạy. Bạn có muốn tôi xóa cấu hình cũ không?',
      'Tesnya lulus. Apakah saya perlu menghapus konfigurasi lama juga?',
      'Tôi có thể thêm kiểm thử cho trường hợp này nếu bạn muốn.',
      'Si quieres, puedo dejarte un archivo de migración listo para ejecutar.',
      'Si vous voulez, je peux ajouter un test pour ce cas.',
      'Posso aggiungere un test anche per questo, se vuoi.',
      'Se quiser, posso remover as dependências antigas.',
      'İsterseniz eski yapılandırmayı da silebilirim.',
      '测试都通过了。你希望我把旧的配置也删掉吗？',
    ]);
    for (const closing of [
      '무엇을 도와드릴까요?',
      '你想让我接下来做什么？',
      '如果你希望我继续分析，请告诉我你更关心哪一部分。',
    ])
      expect(classifyHandback(closing)?.kind, closing).not.toBe('offer');
  });

  it('reads no offer in a relative clause, a choice left to the person, or a generic pleasantry', () => {
    expectOffers([
      'The camelCase conversion is done. Let me know if you want me to convert another file!',
      'Tests pass.\n\nWant me to add the same guard to the importer?',
    ]);
    expect(
      classifyHandback('I need you to share the actual contents of any files you want me to modify.')?.kind,
    ).toBe('waiting');
    expect(classifyHandback('I understand you want me to respond in Thai, but I cannot.')).toBeNull();
    // An offer that hinges on what the person must do first, in the same sentence or the next, waits; further on,
    // it is the last cue.
    const wait = 'Please add config/deploy.yml to the chat';
    expect(classifyHandback(`${wait}, and let me know if you want me to apply the change then.`)?.kind).toBe(
      'waiting',
    );
    expect(classifyHandback(`${wait}. Then, if you want me to, I can apply the change.`)?.kind).toBe(
      'waiting',
    );
    expect(
      classifyHandback(`${wait}. The rest of the deploy is ready. Want me to tag the release too?`)?.kind,
    ).toBe('offer');
    expect(
      classifyHandback('1. Log in again\n2. Or grant the account access\n\nWhich would you like to do?')
        ?.kind,
    ).toBe('question');
    expect(
      classifyHandback('Tell me the change you want first. What schema change do you want to start with?'),
    ).toBeNull();
    expect(classifyHandback('Both plans are above. How would you like to proceed?')).toBeNull();
    expectOffers(['The schema is ready. Would you like to start with the migration?']);
    for (const closing of [
      'The README is updated. Let me know if you’d like any adjustments to this structure!',
      'You can adapt it as needed. Let me know if you’d like me to help with any additional changes!',
    ])
      expect(classifyHandback(closing), closing).toBeNull();
  });

  it('takes a reply that ends on shell commands, with no cue in its prose, for an offer to run them', () => {
    const page = '```html\n<h1>Hello</h1>\n```\n\n';
    expect(classifyHandback(`${page}\`\`\`bash\npython3 -m http.server 8000\n\`\`\``)).toEqual({
      kind: 'offer',
      hit: { rule: 'HANDBACK', cue: 'a closing block of shell commands' },
    });
    // Not when the block is code of another kind, nor when the prose already says what the block is for.
    expect(classifyHandback(`${page}\`\`\`python\nprint("hi")\n\`\`\``)).toBeNull();
    expect(
      classifyHandback(
        'Run this and tell me what it prints:\n```bash\nnpm ls react\n```\nPlease paste the output.',
      )?.kind,
    ).toBe('waiting');
    expect(classifyHandback('```bash\nnpm test\n```\nAll green now.')).toBeNull();
    // Only the closing characters the cues read: a block that opens before them is not seen whole.
    expect(classifyHandback(`\`\`\`bash\n${'echo step\n'.repeat(200)}\`\`\``)).toBeNull();
  });

  it('leaves code blocks and inline code out', () => {
    const tail =
      'Here is the helper:\n```ts\n// Would you like me to add types? Please confirm.\nexport const x = 1;\n```\nThe tests pass.';
    expect(classifyHandback(tail)).toBeNull();
    expect(classifyHandback('The flag is `--would-you-like-me-to`. All done.')).toBeNull();
  });

  it('reads only the closing 1,500 characters', () => {
    const tail = `Would you like me to deploy it?\n\n${'The cache is keyed by user id and expires after ten minutes. '.repeat(30)}`;
    expect(classifyHandback(tail)).toBeNull();
  });
});

describe('detectSurprise', () => {
  it('finds admissions and overturned expectations', () => {
    expect(detectSurprise('You’re right, I introduced a wrong import. My apologies.')).not.toBeNull();
    expect(detectSurprise('That didn’t work as expected.')).not.toBeNull();
    expect(detectSurprise('It turns out the API returns a list, not an object.')).not.toBeNull();
  });
  it('finds surprise said in general words, in several languages', () => {
    expect(detectSurprise('The cache hit rate is strange — every request misses.')).not.toBeNull();
    expect(detectSurprise('Hmm, the migration already ran on this database.')).not.toBeNull();
    expect(detectSurprise("Wait - there's no config file in this folder.")).not.toBeNull();
    expect(detectSurprise('I mixed up the two environment variables.')).not.toBeNull();
    expect(detectSurprise('The build was run from the wrong directory.')).not.toBeNull();
    expect(detectSurprise('After my change there are still some type errors in the router.')).not.toBeNull();
    expect(detectSurprise('非常抱歉，我误解了您的意思。')).not.toBeNull();
    expect(detectSurprise('Özür dilerim, bu dosyayı gözden kaçırmışım.')).not.toBeNull();
    expect(detectSurprise('Das ist seltsam: der Test läuft lokal durch.')).not.toBeNull();
    for (const paragraph of [
      'Resulta que la tabla ya tenía una columna con ese nombre.',
      'Acontece que o servidor já estava rodando na porta 3000.',
      "Il s'avère que le cache n'était jamais vidé.",
      'Es stellt sich heraus, dass die Datei gar nicht geladen wird.',
      'ポート番号を勘違いしていました。',
      '제가 경로를 잘못 알고 있었습니다.',
      'Ternyata servernya sudah berjalan di port 3000.',
      'Hóa ra máy chủ đã chạy trên cổng 3000.',
    ])
      expect(detectSurprise(paragraph), paragraph).not.toBeNull();
    for (const paragraph of [
      'La tabla tiene una columna nueva y los tests pasan.',
      'Saya akan menjalankan server di port 3000.',
      'Tôi sẽ chạy máy chủ trên cổng 3000.',
    ])
      expect(detectSurprise(paragraph), paragraph).toBeNull();
  });
  it('leaves a pause that only plans, and a wait for something, alone', () => {
    expect(detectSurprise('Wait, the user asked for tests too. Let me add them.')).toBeNull();
    expect(detectSurprise('Let me wait for the build to finish.')).toBeNull();
    expect(detectSurprise('Your version has insights that I missed before.')).toBeNull();
    expect(
      detectSurprise('Please test it, and share the console output if there are still issues.'),
    ).toBeNull();
    expect(
      detectSurprise('The user says the table is still broken. Let me look at the renderer.'),
    ).toBeNull();
  });
  it('leaves diagnoses, changes of plan and accepted requests alone', () => {
    expect(detectSurprise('I see the issue. Let me fix the import.')).toBeNull();
    expect(detectSurprise('Actually, let me try a different approach.')).toBeNull();
    expect(detectSurprise('You’re absolutely right! Let me add that feature.')).toBeNull();
    expect(detectSurprise('If it turns out the cache is the problem, we can disable it.')).toBeNull();
    // The real cause still to look for is no discovery; the real cause found is one.
    expect(detectSurprise('Let me run a quick test to see what the actual issue is.')).toBeNull();
    expect(detectSurprise('Share the console output, then we can fix the actual issue.')).toBeNull();
    expect(detectSurprise('The real issue might be if we switch databases during tests.')).toBeNull();
    expect(detectSurprise('So the actual issue is: the sidebar never refreshes.')).not.toBeNull();
    expect(detectSurprise("That's the real problem! The list is cached.")).not.toBeNull();
  });
});

describe('classifyFailure', () => {
  it('blames the machine for a missing tool, a rejected call and the network, and the agent for its own code', () => {
    expect(
      classifyFailure({ tool: 'Bash', input: 'gh pr list', error: 'bash: gh: command not found' }).kind,
    ).toBe('environment');
    expect(
      classifyFailure({ tool: 'Bash', input: 'git push', error: 'No (tell Claude what to do differently)' })
        .kind,
    ).toBe('environment');
    expect(
      classifyFailure({ tool: 'WebFetch', input: 'https://example.com', error: 'ECONNREFUSED' }).kind,
    ).toBe('environment');
    const typeErrors = [
      'Exit code 2',
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/b.ts(9,1): error TS2304: Cannot find name 'foo'.",
      '',
      'Found 2 errors in 2 files.',
    ].join('\n');
    expect(classifyFailure({ tool: 'Bash', input: 'npx tsc --noEmit', error: typeErrors }).kind).toBe(
      'agent_mistake',
    );
    const traceback =
      'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    print(foo)\nNameError: name \'foo\' is not defined';
    expect(classifyFailure({ tool: 'Bash', input: 'python app.py', error: traceback }).kind).toBe(
      'agent_mistake',
    );
  });
});

describe('ruleFailure', () => {
  const kind = (tool: string, input: string, error: string, exitCode?: number) =>
    ruleFailure(exitCode === undefined ? { tool, input, error } : { tool, input, error, exitCode }).kind;

  it('blames the machine for a missing tool, and the agent for a missing project script', () => {
    expect(kind('Bash', 'gh pr list', 'bash: gh: command not found')).toBe('environment');
    expect(
      kind('Bash', 'gradlew build', "gradlew: The term 'gradlew' is not recognized as a name of a cmdlet"),
    ).toBe('agent_mistake');
  });
  it('reads probes whose failing answer was the information sought', () => {
    expect(kind('Bash', 'rg -n "TODO" src', 'Process exited with code 1\nOutput:\n')).toBe('environment');
    expect(kind('Bash', 'rg -n "TODO" src', '', 2)).toBe('agent_mistake');
    expect(
      kind('Bash', 'git status', 'fatal: not a git repository (or any of the parent directories): .git'),
    ).toBe('environment');
  });
  it('reads permissions, passwords, the network and the person cancelling as the environment', () => {
    expect(kind('Bash', 'mv a b', 'mv: rename a to b: Operation not permitted')).toBe('environment');
    expect(kind('Bash', 'supabase db push', 'Enter your database password:')).toBe('environment');
    expect(kind('WebFetch', 'https://example.com', 'ECONNREFUSED')).toBe('environment');
    expect(kind('cancelled tool call', '', 'Cancelled')).toBe('environment');
  });
  it("reads the harnesses' own refusals and a machine's missing pieces as the environment", () => {
    expect(
      kind(
        'Bash',
        'cd /etc && ls',
        "cd to '/etc' was blocked. For security, the agent may only change directories to child directories of the working directory.",
      ),
    ).toBe('environment');
    expect(
      kind('run_shell_command', 'ls | wc -l', 'Command rejected because it could not be parsed safely'),
    ).toBe('environment');
    expect(
      kind(
        'list_directory',
        '/srv',
        "Directory '/srv' is not within any of the registered workspace directories.",
      ),
    ).toBe('environment');
    expect(kind('read_file', '.env', "File path '/p/.env' is ignored by configured ignore patterns.")).toBe(
      'environment',
    );
    expect(
      kind('KillShell', 'shell 3', 'Shell 3 is not running, so cannot be killed (status: completed)'),
    ).toBe('environment');
    expect(kind('Bash', 'yarn build', 'No version is set for command yarn')).toBe('environment');
    expect(
      kind(
        'Bash',
        'gcloud run deploy',
        'ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Cloud Run API has not been used in project demo before or it is disabled.',
      ),
    ).toBe('environment');
    // A missing script of the project's own is still the agent's.
    expect(kind('Bash', 'npm run biuld', 'npm error Missing script: "biuld"')).toBe('agent_mistake');
  });
  it("reads Claude Code's own words for a call its permission system stopped as the environment", () => {
    expect(kind('Write', 'a.ts', 'Permission to use Write has been auto-denied (prompts unavailable).')).toBe(
      'environment',
    );
    expect(
      kind(
        'Bash',
        'git push --force',
        'Permission to use Bash with command git push --force has been denied.',
      ),
    ).toBe('environment');
    expect(
      kind(
        'mcp__x__y',
        '{}',
        "Claude requested permissions to use mcp__x__y, but you haven't granted it yet.",
      ),
    ).toBe('environment');
    expect(
      kind('Task', 'explore', 'Permission for this tool use was denied. The tool use was rejected.'),
    ).toBe('environment');
    // The same shape of message about a file is still the agent's.
    expect(kind('Read', 'src/x.ts', '<tool_use_error>File does not exist.</tool_use_error>')).toBe(
      'agent_mistake',
    );
  });
  it('holds the agent to its own code, paths and shell syntax', () => {
    expect(kind('Bash', 'npx tsc', "src/a.ts(3,5): error TS2322: Type 'string' is not assignable")).toBe(
      'agent_mistake',
    );
    expect(kind('Bash', 'cat src/foo.ts', 'cat: src/foo.ts: No such file or directory')).toBe(
      'agent_mistake',
    );
    expect(kind('Bash', 'gh pr create --body "see `docs/`"', '(eval):1: permission denied: docs/')).toBe(
      'agent_mistake',
    );
  });
});

describe('answers to a hand-back', () => {
  it('classifies declines and approvals', () => {
    expect(classifyAnswer('no thanks')).toBe('declined');
    expect(classifyAnswer('yes, go ahead')).toBe('approved');
    expect(classifyAnswer('好的，请实现')).toBe('approved');
    expect(classifyAnswer('what would that change?')).toBe('other');
  });
  it('knows when only the person has what is needed', () => {
    expect(needsPerson("wait until I've reviewed the migration")).toBe(true);
    expect(needsPerson("I don't have access to the production database")).toBe(true);
    expect(needsPerson('add a dark mode toggle')).toBe(false);
  });
});
