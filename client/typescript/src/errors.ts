// Typed errors: every problem+json answer of the referee as an Error that carries its
// stable `code`, the `rule` an illegal move breaks, and the rest (the twin of
// referee_client/errors.py).
import type { components } from "./schema.js";

export type Problem = components["schemas"]["Problem"];
/** the codes the referee answers, plus the client's own for a lost connection */
export type Code = Problem["code"] | "connection_failed" | "stream_lost";

export class RefereeError extends Error {
  readonly status: number;
  readonly code: Code;
  readonly rule?: string;
  readonly detail: string;
  readonly currentVersion?: number;
  readonly retryAfter?: number;
  readonly problem: Omit<Partial<Problem>, "code"> & { code: Code };

  constructor(status: number, problem: Omit<Partial<Problem>, "code"> & { code: Code }) {
    const rule = problem.rule ? ` [${problem.rule}]` : "";
    super(`${status} ${problem.code}${rule}: ${problem.detail ?? ""}`);
    this.name = "RefereeError";
    this.status = status;
    this.code = problem.code;
    this.rule = problem.rule;
    this.detail = problem.detail ?? "";
    this.currentVersion = problem.current_version;
    this.retryAfter = problem.retry_after;
    this.problem = problem;
  }
}

/** 409 illegal-in-this-state, 412 the version moved on, 422 an illegal move (`rule`) */
export const isIllegalMove = (error: unknown): error is RefereeError =>
  error instanceof RefereeError && error.code === "illegal_move";

export async function problemOf(answer: Response): Promise<RefereeError> {
  let problem: Partial<Problem> = {};
  try {
    problem = (await answer.json()) as Partial<Problem>;
  } catch {
    problem = { detail: answer.statusText };
  }
  return new RefereeError(answer.status, { ...problem, code: problem.code ?? "bad_request" });
}
