/**
 * The meters a CEL evaluation charges: the API server's cost (per call and
 * per object, its limits and its words) and kunion's work budget for one
 * document, counted in the same units so that it stops at the same point on
 * every machine. Imports nothing, so that values and libraries alike can
 * charge work.
 */

/** Per-expression limit (apiserver `PerCallLimit`). */
export const PER_CALL_LIMIT = 1_000_000;
/** Per-object budget (apiserver `RuntimeCELCostBudget`). */
export const RUNTIME_BUDGET = 10_000_000;
/**
 * kunion's work budget for one document, in cost units: twice the API
 * server's per-object budget, so that one object may always spend all of
 * its own and what its calls build; a `kind: List` shares it among its
 * items. About three seconds of work on a slow machine (1e7 took 1.7 s).
 */
export const DOCUMENT_WORK_LIMIT = 2 * RUNTIME_BUDGET;

export class CostExceeded extends Error {
  constructor() {
    super("operation cancelled: actual cost limit exceeded");
  }
}

/** The document's work budget is spent: kunion stops, whatever the API server would do. */
export class WorkExceeded extends Error {
  constructor(readonly limit: number) {
    super(`work budget of ${limit} exceeded`);
  }
}

/** The work one document may take, shared by every rule of every object it holds. */
export class WorkBudget {
  spent = 0;
  /** Set once the budget is spent and a finding said so: later rules do nothing. */
  reported = false;
  constructor(readonly limit: number = DOCUMENT_WORK_LIMIT) {}
  get exhausted(): boolean {
    return this.spent > this.limit;
  }
  charge(n: number): void {
    this.spent += n;
    if (this.spent > this.limit) throw new WorkExceeded(this.limit);
  }
}

let currentWork: WorkBudget | undefined;

/** Whether a document's work budget is open (withWorkBudget): then every evaluation draws on it. */
export const inDocument = (): boolean => currentWork !== undefined;

/** Runs `fn` with every CEL evaluation inside it drawing on `budget` (one document's). */
export function withWorkBudget<T>(budget: WorkBudget, fn: () => T): T {
  const saved = currentWork;
  currentWork = budget;
  try {
    return fn();
  } finally {
    currentWork = saved;
  }
}

/**
 * The work budget of the document being checked; outside one, the budget
 * held by `owner` (one object's, made on first use), or a fresh one.
 */
export function workBudget(owner?: { work?: WorkBudget }): WorkBudget {
  if (currentWork !== undefined) return currentWork;
  if (owner === undefined) return new WorkBudget();
  owner.work ??= new WorkBudget();
  return owner.work;
}

export class Meter {
  cost = 0;
  exceeded = false;
  constructor(
    readonly limit: number,
    readonly work: WorkBudget = new WorkBudget(),
  ) {}
  /** As new: nothing charged to it or its work budget. */
  reset(): void {
    this.cost = 0;
    this.exceeded = false;
    this.work.spent = 0;
    this.work.reported = false;
  }
  /** Charges `n` of cost, and `n + built` of work. */
  charge(n: number, built = 0): void {
    // the API server's limit first: a call past both is refused in its words, not as kunion's work
    this.cost += n;
    if (this.cost > this.limit) {
      this.exceeded = true;
      throw new CostExceeded();
    }
    this.work.charge(n + built);
  }
}

let current: Meter | undefined;

/** The meter of the evaluation running now, if any. */
export const currentMeter = (): Meter | undefined => current;

/** Runs `fn` with `meter` charged by every instrumented call. */
export function withMeter<T>(meter: Meter, fn: () => T): T {
  const saved = current;
  current = meter;
  try {
    return fn();
  } finally {
    current = saved;
  }
}

/** Makes `meter` the running one (none: undefined) and answers the one it replaces: withMeter without a closure. */
export function swapMeter(meter: Meter | undefined): Meter | undefined {
  const saved = current;
  current = meter;
  return saved;
}

/**
 * Charges work a library function does beyond what the API server's cost
 * counts (a regex search that rescans: findAll), to the running evaluation's
 * work budget; nothing outside an evaluation.
 */
export function chargeWork(n: number): void {
  current?.work.charge(n);
}
