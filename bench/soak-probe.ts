/**
 * Preloaded into the app process by bench/soak.ts (`node --expose-gc --import tsx
 * --import ./bench/soak-probe.ts src/main.ts`): every SOAK_SAMPLE_MS (default
 * 10 s) appends one JSON line to SOAK_SAMPLE_FILE with process.memoryUsage()
 * before and after a forced full GC (when --expose-gc is on), the open handles
 * by type (process.getActiveResourcesInfo()) and the event-loop utilisation
 * since the last sample. Its timer is unref'd, so it neither keeps the app
 * alive nor shows among the handles. Does nothing without SOAK_SAMPLE_FILE.
 */
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const file = process.env.SOAK_SAMPLE_FILE;
const every = Number(process.env.SOAK_SAMPLE_MS ?? 10_000);

if (file) {
  let lastElu = performance.eventLoopUtilization();
  const sample = () => {
    const before = process.memoryUsage();
    const gc = (globalThis as { gc?: () => void }).gc;
    let after: NodeJS.MemoryUsage | undefined;
    if (typeof gc === 'function') {
      gc();
      after = process.memoryUsage();
    }
    const handles: Record<string, number> = {};
    for (const type of process.getActiveResourcesInfo()) handles[type] = (handles[type] ?? 0) + 1;
    const elu = performance.eventLoopUtilization(lastElu);
    lastElu = performance.eventLoopUtilization();
    const line = {
      t: Date.now(),
      uptimeS: Math.round(process.uptime()),
      rss: before.rss,
      heapUsed: before.heapUsed,
      heapTotal: before.heapTotal,
      external: before.external,
      arrayBuffers: before.arrayBuffers,
      ...(after ? { heapUsedAfterGc: after.heapUsed, heapTotalAfterGc: after.heapTotal, externalAfterGc: after.external } : {}),
      handles,
      elu: Math.round(elu.utilization * 1000) / 1000,
    };
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // The bench removed its temp dir: nothing to report to any more.
    }
  };
  setInterval(sample, every).unref();
}
