/**
 * What the plots can show: the series definitions live in sim/app/plot-series.ts, shared with the
 * worker, which samples the chosen ones at every simulation step (sim/app/plot-sampler.ts).
 */
export { availableSeries, wheelSlip, type SeriesDef, type SeriesFrame } from '../../sim/app/plot-series';
