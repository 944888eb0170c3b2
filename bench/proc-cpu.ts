/**
 * CPU and memory of processes, read from `/proc` (Linux): what each side of the loopback cluster spent, without a
 * sampling profiler's wall-clock attribution. Times are milliseconds (USER_HZ = 100, so 10 ms resolution).
 */
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10;

/** CPU time (user + system, ms) of a process so far; 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * CPU time (ms) of a process's threads so far, summed by thread name (`bun.exe` is a Bun process's JavaScript
 * thread, `Worker` its worker threads, `JITWorker` the compilers, `HeapHelper` the collector's helpers, …).
 */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS);
      } catch {
        /* the thread ended */
      }
    }
  } catch {
    /* gone */
  }
  return byName;
}

/** CPU time (ms) of every `postgres` process on the machine so far (backends, WAL writer, checkpointer, …). */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += cpuMs(Number(entry));
    } catch {
      /* gone */
    }
  }
  return total;
}

/** Steal time of the machine so far (ms): the hypervisor gave the CPU to someone else. */
export function stealMs(): number {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/) ?? [];
  return Number(cpu[8]) * TICK_MS;
}

/** Resident memory of a process (MB); 0 when it is gone. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
