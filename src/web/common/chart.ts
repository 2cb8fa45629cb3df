import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"

const PALETTE = ["#2563eb", "#d97706", "#059669", "#dc2626", "#7c3aed", "#0891b2", "#be185d", "#4d7c0f"]

export interface ChartSeries {
  readonly label: string
  /** Which y axis: the left one (default) or the right one. */
  readonly scale?: "y" | "y2"
}

export interface Chart {
  /** x values (Unix seconds) and one array per series; null leaves a gap. */
  readonly update: (x: ReadonlyArray<number>, ys: ReadonlyArray<ReadonlyArray<number | null>>) => void
  readonly destroy: () => void
}

/**
 * A uPlot time chart that fills its container's width (it follows resizes, down to a phone's). The
 * container's `data-points` says how many values it plots, for people reading the DOM and for tests.
 */
export const timeChart = (
  container: HTMLElement,
  options: { readonly series: ReadonlyArray<ChartSeries>; readonly height?: number; readonly yLabel: string; readonly y2Label?: string; readonly points?: boolean }
): Chart => {
  const height = options.height ?? 220
  const width = () => Math.max(240, container.clientWidth)
  const usesRight = options.series.some((series) => series.scale === "y2")
  const plot = new uPlot(
    {
      width: width(),
      height,
      series: [
        {},
        ...options.series.map((series, i) => ({
          label: series.label,
          scale: series.scale ?? "y",
          stroke: PALETTE[i % PALETTE.length]!,
          width: 2,
          points: { show: options.points ?? false, size: 6 },
          spanGaps: false
        }))
      ],
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] } },
      axes: [
        { stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } },
        { label: options.yLabel, stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" } },
        ...(usesRight ? [{ label: options.y2Label ?? "", scale: "y2", side: 1 as const, stroke: "currentColor", grid: { show: false } }] : [])
      ],
      legend: { live: false }
    },
    [[], ...options.series.map(() => [])],
    container
  )
  const resize = new ResizeObserver(() => plot.setSize({ width: width(), height }))
  resize.observe(container)
  return {
    destroy: () => {
      resize.disconnect()
      plot.destroy()
    },
    update: (x, ys) => {
      plot.setData([x as Array<number>, ...ys.map((y) => y as Array<number | null>)])
      container.dataset.points = String(ys.reduce((sum, y) => sum + y.filter((value) => value !== null).length, 0))
    }
  }
}
