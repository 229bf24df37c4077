import { h } from './dom.js';
import uPlot from './vendor/uplot.js';

// Blue and orange tell apart for most kinds of colour blindness; the second line is dashed as well.
const COLOURS = ['#1f5fbf', '#b34700', '#2e7d32', '#6a1b9a'];

function cssVar(name, fallback) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function xValues(chart) {
  if (chart.x.kind === 'category') return chart.x.values.map((_, index) => index);
  return chart.x.values.map((value) => Date.parse(value) / 1000);
}

function shortDate(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

function format(chart, value) {
  if (value === null || value === undefined) return '—';
  return chart.y.percent ? `${value}%` : String(value);
}

function xLabel(chart, index) {
  const value = chart.x.values[index];
  if (value === undefined) return '';
  if (chart.x.kind === 'week') return `week of ${value}`;
  if (chart.x.kind === 'time')
    return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return value;
}

function options(chart, width) {
  const bars = chart.type === 'bars';
  const category = chart.x.kind === 'category';
  const ink = cssVar('--ink', '#1a1a1a');
  const grid = cssVar('--rule', '#d0d0d0');
  const count = chart.plotted.length;
  return {
    width,
    height: 260,
    scales: {
      x: category
        ? { time: false, range: () => [-0.5, chart.x.values.length - 0.5] }
        : {
            time: true,
            ...(chart.x.values.length === 1
              ? { range: (_u, min, max) => [min - 3 * 86400, max + 3 * 86400] }
              : {}),
          },
      y: {
        range: (_u, min, max) => {
          if (chart.y.percent) return [0, 100];
          const top = Math.max(max ?? 0, 0);
          return [Math.min(min ?? 0, 0), top === 0 ? 1 : top * 1.15];
        },
      },
    },
    series: [
      {
        label: chart.x.label,
        value: (_u, _value, _series, index) => (index === null ? '—' : xLabel(chart, index)),
      },
      ...chart.plotted.map((column, index) => ({
        label: column.label,
        stroke: COLOURS[index % COLOURS.length],
        width: 2,
        ...(index === 1 && !bars ? { dash: [8, 5] } : {}),
        ...(bars
          ? {
              fill: `${COLOURS[index % COLOURS.length]}cc`,
              paths: uPlot.paths.bars({
                size: [0.7 / count, 80],
                align: count === 1 ? 0 : index === 0 ? -1 : 1,
              }),
              points: { show: false },
            }
          : { points: { show: true, size: 8 }, spanGaps: true }),
        value: (_u, value) => format(chart, value),
      })),
    ],
    axes: [
      {
        stroke: ink,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid },
        ...(category
          ? {
              splits: () => chart.x.values.map((_, index) => index),
              values: (_u, splits) => splits.map((index) => chart.x.values[index] ?? ''),
            }
          : {}),
        // A week's point sits on its Monday: the ticks are the weeks, not the days between.
        ...(chart.x.kind === 'week'
          ? { splits: () => xValues(chart), values: (_u, splits) => splits.map((at) => shortDate(at)) }
          : {}),
      },
      {
        stroke: ink,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid },
        label: chart.y.label,
        values: (_u, splits) => splits.map((value) => (chart.y.percent ? `${value}%` : String(value))),
      },
    ],
    cursor: { points: { size: 9 } },
    legend: { live: true },
  };
}

function table(chart) {
  const columns = [...chart.plotted, ...chart.counts];
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, chart.title),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, chart.x.label),
        chart.notes ? h('th', { scope: 'col' }, chart.notes.label) : null,
        columns.map((column) => h('th', { scope: 'col' }, column.label)),
      ),
    ),
    h(
      'tbody',
      {},
      chart.x.values.map((_, index) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, xLabel(chart, index)),
          chart.notes ? h('td', { class: 'note' }, chart.notes.values[index] ?? '') : null,
          columns.map((column, position) =>
            h(
              'td',
              { class: 'num' },
              position < chart.plotted.length
                ? format(chart, column.values[index])
                : (column.values[index] ?? '—'),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * A chart as a figure: a heading, what it measures, the plot, and its numbers as a table (for a screen reader,
 * and for anyone who wants them). `data-points` says how many x values it drew.
 */
export function figure(chart, { level = 'h2' } = {}) {
  const points = chart.x.values.length;
  const plot = h('div', {
    class: 'plot',
    role: 'img',
    'aria-label': `${chart.title}: ${points} point${points === 1 ? '' : 's'}; the numbers are in the table below.`,
  });
  const box = h(
    'figure',
    { class: 'chart', id: `chart-${chart.id}`, dataset: { points: String(points) } },
    h('figcaption', {}, h(level, {}, chart.title), h('p', {}, chart.description)),
    points === 0 ? h('p', { class: 'empty' }, 'Nothing to chart yet.') : plot,
    points === 0 ? null : h('details', {}, h('summary', {}, 'The numbers'), table(chart)),
  );
  if (points > 0) {
    // Drawn once the figure is in the page and has a width.
    requestAnimationFrame(() => {
      const width = Math.max(260, plot.clientWidth);
      const data = [xValues(chart), ...chart.plotted.map((column) => column.values)];
      const drawn = new uPlot(options(chart, width), data, plot);
      box.dataset.drawn = String(drawn.data[0].length);
      new ResizeObserver(() => {
        const next = Math.max(260, plot.clientWidth);
        if (Math.abs(next - drawn.width) > 4) drawn.setSize({ width: next, height: 260 });
      }).observe(plot);
    });
  }
  return box;
}
