// The field's NDVI series (GET /api/fields/ndvi: the mean NDVI of its cloud-free dates, oldest first)
// as a line chart, drawn by uPlot on a canvas; the date shown on the map is marked on it.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export const CHART_COLOURS = { line: '#2e7d32', marker: '#1446ff' } as const;

export class NdviChart {
  private plot: uPlot | undefined;
  private marked: number | undefined;

  constructor(private readonly container: HTMLElement) {}

  /** Draws the series; an empty one leaves a note instead. */
  show(series: ReadonlyArray<{ date: string; ndvi_mean: number }>): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.container.replaceChildren();
    if (series.length === 0) {
      this.container.textContent = 'No cloud-free date yet.';
      return;
    }
    const times = series.map((point) => Date.parse(`${point.date}T00:00:00Z`) / 1000);
    const values = series.map((point) => point.ndvi_mean);
    this.plot = new uPlot(
      {
        width: Math.max(240, this.container.clientWidth),
        height: 170,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: [0, 1] } },
        series: [
          {},
          {
            label: 'NDVI',
            stroke: CHART_COLOURS.line,
            width: 2,
            points: { show: true, size: 5, fill: CHART_COLOURS.line },
          },
        ],
        axes: [
          { stroke: '#444', grid: { stroke: '#e4e4e4' } },
          { stroke: '#444', grid: { stroke: '#e4e4e4' }, size: 40 },
        ],
        hooks: {
          draw: [
            (u) => {
              if (this.marked === undefined) return;
              const x = u.valToPos(this.marked, 'x', true);
              if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
              u.ctx.save();
              u.ctx.strokeStyle = CHART_COLOURS.marker;
              u.ctx.setLineDash([4, 3]);
              u.ctx.beginPath();
              u.ctx.moveTo(x, u.bbox.top);
              u.ctx.lineTo(x, u.bbox.top + u.bbox.height);
              u.ctx.stroke();
              u.ctx.restore();
            },
          ],
        },
      },
      [times, values],
      this.container,
    );
  }

  /** Marks a date (YYYY-MM-DD...) on the chart. */
  mark(date: string | undefined): void {
    this.marked = date ? Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / 1000 : undefined;
    this.plot?.redraw(false);
  }
}
