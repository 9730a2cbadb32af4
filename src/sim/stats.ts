/**
 * Request counters of a running simulator: the benchmark and the tests read them to check how many
 * requests a scan cost (Dropshot's paging: N items at limit L cost ceil(N/L) + 1 requests). Control
 * endpoints (/_sim/*) are not counted.
 */
export class SimStats {
  requests = 0;
  byPath: Record<string, number> = {};
  faultsInjected: Record<string, number> = {};

  countRequest(route: string): void {
    this.requests++;
    this.byPath[route] = (this.byPath[route] ?? 0) + 1;
  }

  countFault(kind: string): void {
    this.faultsInjected[kind] = (this.faultsInjected[kind] ?? 0) + 1;
  }

  reset(): void {
    this.requests = 0;
    this.byPath = {};
    this.faultsInjected = {};
  }

  toJSON(): { requests: number; byPath: Record<string, number>; faultsInjected: Record<string, number> } {
    return {
      requests: this.requests,
      byPath: { ...this.byPath },
      faultsInjected: { ...this.faultsInjected },
    };
  }
}
