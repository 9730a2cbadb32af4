import { z } from "zod";
import { ZooUsageError } from "../errors.js";
import { exactItems, parseWithNumberTexts } from "./exactJson.js";
import { invalidBody } from "./invalidBody.js";
import { nextPageReadAhead } from "./nextPageReadAhead.js";
import { type BodyFilter, OutputSkippingFilter } from "./operationBody.js";
import type { MeasuredOutput } from "./outputSize.js";
import { pageEnvelope } from "./pageEnvelope.js";
import { PageItems, SplitPage, splitCompactPage } from "./pageItems.js";
import type { AsyncOperation } from "./schemas/index.js";
import { AsyncOperationSchema, isUuid } from "./schemas/index.js";
import { type ApiScope, scopedPath } from "./scope.js";
import type { Transport } from "./transport.js";

export type SortMode = "created_at_ascending" | "created_at_descending";

/**
 * One page of `GET /user/api-calls` with its items still raw: each record is validated on its own
 * downstream, so that one bad record lands in `rejects` instead of failing the whole page.
 */
export interface RawApiCallsPage {
  /**
   * The page's records, unvalidated. A compact page (Dropshot's `next_page` first, or `items` first)
   * keeps each item as the bytes the server sent (PageItems.bytesOf), parsed one at a time when
   * asked: the loader can hand those bytes to DuckDB without serialising the record again.
   */
  items: PageItems;
  nextPage: string | null;
  requestId: string | undefined;
}

/** Operation bodies declared smaller than this are parsed whole (getAsyncOperationRaw). */
const WHOLE_BODY_BYTES = 64 * 1024;

/** The part of the spec's Org the exporter reads: its id. */
const OrgIdSchema = z.looseObject({ id: z.string().refine(isUuid, "a UUID") });

/** The Zoo API operations the exporter uses, typed. Retries and errors live in Transport. */
export class ZooClient {
  constructor(private readonly transport: Transport) {}

  get stats() {
    return this.transport.stats;
  }

  /** The x-api-call-id of each response since the last take (see Transport.takeReceivedCallIds). */
  takeReceivedCallIds(): string[] {
    return this.transport.takeReceivedCallIds();
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  async listApiCalls(params: {
    /** GET /user/api-calls (the default) or GET /org/api-calls: same schema and paging. */
    scope?: ApiScope;
    limit?: number;
    pageToken?: string | null;
    sortBy?: SortMode;
    /**
     * Told the next page's token read ahead, before the parse: from the body's first bytes while the
     * rest is still arriving (Dropshot's order, token first), or from its tail once it is in.
     */
    onNextPageSeen?: (token: string) => void;
    /** Aborted when the page is no longer wanted (a read-ahead dropped): no more attempts are made. */
    signal?: AbortSignal | undefined;
  }): Promise<RawApiCallsPage> {
    const { onNextPageSeen } = params;
    const path = scopedPath(params.scope ?? "user", "api-calls");
    const response = await this.transport.getJson(
      path,
      {
        limit: params.limit === undefined ? undefined : String(params.limit),
        page_token: params.pageToken ?? undefined,
        // The spec contradicts itself about the default order (user_list_api_calls says newest
        // first, CreatedAtSortMode says ascending only): always say which one.
        sort_by: params.sortBy ?? "created_at_ascending",
      },
      {
        signal: params.signal,
        parse: splitCompactPage,
        ...(onNextPageSeen === undefined ? {} : nextPageReadAhead(onNextPageSeen)),
      },
    );
    const { body, requestId } = response;
    if (body instanceof SplitPage)
      return { items: PageItems.raw(body.items), nextPage: body.nextPage, requestId };
    const { items, nextPage } = pageEnvelope(body, `GET ${path}`, requestId);
    return { items: PageItems.parsed(exactItems(items, response.bytes)), nextPage, requestId };
  }

  /**
   * GET /user/payment/invoices or /org/payment/invoices (InvoiceResultsPage), items unvalidated so
   * one bad invoice is rejected alone. The body is read again with every number as the text the
   * server wrote (parseWithNumberTexts): invoice amounts are money, and a double would round them.
   * A 403 (not an org admin) is `api.forbidden`, a 404 (no payment account) `api.not_found`.
   */
  async listInvoices(params: {
    scope: ApiScope;
    limit?: number;
    pageToken?: string | null;
    signal?: AbortSignal | undefined;
  }): Promise<{ items: unknown[]; nextPage: string | null; requestId: string | undefined }> {
    const path = scopedPath(params.scope, "payment/invoices");
    const response = await this.transport.getJson(
      path,
      {
        limit: params.limit === undefined ? undefined : String(params.limit),
        page_token: params.pageToken ?? undefined,
      },
      {
        signal: params.signal,
        notFoundHint: "The token's account has no invoices to list (no payment account).",
      },
    );
    const body = parseWithNumberTexts(response.bytes.toString("utf8"));
    const { items, nextPage } = pageEnvelope(body, `GET ${path}`, response.requestId);
    return { items, nextPage, requestId: response.requestId };
  }

  /**
   * GET /user/api-calls/{id} (operationId get_api_call_for_user), or /org/api-calls/{id} in org
   * scope: one call as the listing would show it now. The body is returned unvalidated: the export
   * checks it with the listing's schema, so a bad record goes to `rejects` rather than failing the
   * run. A 404 is `api.not_found`.
   */
  async getApiCall(
    id: string,
    scope: ApiScope = "user",
    options: { onRetry?: (error: ZooUsageError) => void } = {},
  ): Promise<{ body: unknown; requestId: string | undefined }> {
    if (!isUuid(id)) {
      throw new ZooUsageError({
        code: "config.invalid",
        message: `API call id ${JSON.stringify(id)} is not a UUID`,
        hint: "An API call id is a UUID, e.g. 0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e.",
      });
    }
    const response = await this.transport.getJson(
      scopedPath(scope, `api-calls/${id}`),
      {},
      {
        notFoundHint:
          scope === "user"
            ? "No such API call for this token: the id is wrong, or the call belongs to another user (the API does not reveal which)."
            : "No such API call in this token's org: the id is wrong, or the call belongs to someone outside the org (the API does not reveal which).",
        ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
      },
    );
    return { body: response.body, requestId: response.requestId };
  }

  /**
   * GET /user/payment/balance or /org/payment/balance (get_payment_balance_for_user / _for_org): the
   * API credits left, as a CustomerBalance body. Returned unvalidated, as getApiCall: the export
   * checks it (src/transform/balanceRow.ts), so a body it cannot store goes to `rejects` rather than
   * failing the run. A 403 (not allowed to see the org's billing) is `api.forbidden`, a 404 (no
   * payment account) `api.not_found`.
   */
  async getPaymentBalance(scope: ApiScope): Promise<{ body: unknown; requestId: string | undefined }> {
    const path = scopedPath(scope, "payment/balance");
    const response = await this.transport.getJson(
      path,
      {},
      { notFoundHint: "This token's account has no payment account to read credits from." },
    );
    return { body: response.body, requestId: response.requestId };
  }

  /**
   * GET /org (operationId get_org): the id of the org the token's user administers. Org admins
   * only: another token gets the API's 403 or 404 (`api.forbidden`, `api.not_found`).
   */
  async getOrgId(): Promise<string> {
    const response = await this.transport.getJson(
      "/org",
      {},
      { notFoundHint: "The token's user belongs to no org: --scope org needs an org admin's token." },
    );
    const parsed = OrgIdSchema.safeParse(response.body);
    if (!parsed.success) throw invalidBody("GET /org", response.requestId, parsed.error);
    return parsed.data.id.toLowerCase();
  }

  /**
   * One page of a ResultsPage listing (GET /user/api-tokens, /org/members, ...), items raw: each is
   * validated by the caller. Pages in ascending created_at, as the api-calls scan does.
   */
  async listPage(
    path: string,
    params: { limit: number; pageToken: string | null; signal?: AbortSignal | undefined },
  ): Promise<{ items: unknown[]; nextPage: string | null }> {
    const response = await this.transport.getJson(
      path,
      {
        limit: String(params.limit),
        page_token: params.pageToken ?? undefined,
        sort_by: params.pageToken === null ? "created_at_ascending" : undefined,
      },
      { signal: params.signal },
    );
    return pageEnvelope(response.body, `GET ${path}`, response.requestId);
  }

  /** The whole operation, output files included (`operation get --save-outputs` writes them). */
  async getAsyncOperation(id: string): Promise<AsyncOperation> {
    const { body, requestId } = await this.fetchOperation(id, undefined);
    const parsed = AsyncOperationSchema.safeParse(body);
    if (!parsed.success) throw invalidBody(`GET /async/operations/${id}`, requestId, parsed.error);
    return parsed.data;
  }

  /**
   * The operation body unvalidated, with each output file's content left out as it streams in
   * (its value reads as "") and measured instead: the export stores names and sizes only, so its
   * memory does not grow with the files. It validates the body itself, to reject one bad body, not fail.
   * A body declared smaller than WHOLE_BODY_BYTES is read and parsed whole instead (outputSizes is
   * then undefined: the sizes are those of the parsed values): scanning it byte by byte costs more
   * than parsing its few small outputs.
   */
  async getAsyncOperationRaw(
    id: string,
    options: { onRetry?: (error: ZooUsageError) => void } = {},
  ): Promise<{
    body: unknown;
    requestId: string | undefined;
    outputSizes: Map<string, MeasuredOutput> | undefined;
  }> {
    let filter: OutputSkippingFilter | undefined;
    const bodyFilter = (declaredBytes: number | undefined) => {
      // One per attempt: the last one made read the body that was returned.
      filter =
        declaredBytes !== undefined && declaredBytes < WHOLE_BODY_BYTES
          ? undefined
          : new OutputSkippingFilter();
      return filter;
    };
    const { body, requestId } = await this.fetchOperation(id, bodyFilter, options.onRetry);
    return { body, requestId, outputSizes: filter?.outputs };
  }

  private async fetchOperation(
    id: string,
    bodyFilter: ((declaredBytes: number | undefined) => BodyFilter | undefined) | undefined,
    onRetry?: (error: ZooUsageError) => void,
  ): Promise<{ body: unknown; requestId: string | undefined }> {
    if (!isUuid(id)) {
      throw new ZooUsageError({
        code: "config.invalid",
        message: `Operation id ${JSON.stringify(id)} is not a UUID`,
        hint: "An async operation id is the UUID of the API call that started it, e.g. 0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e.",
      });
    }
    const path = `/async/operations/${id}`;
    const response = await this.transport.getJson(
      path,
      {},
      {
        notFoundHint:
          "No such operation for this token: the id is wrong, or the operation belongs to another user (the API does not reveal which).",
        ...(bodyFilter === undefined ? {} : { bodyFilter }),
        ...(onRetry === undefined ? {} : { onRetry }),
      },
    );
    return { body: response.body, requestId: response.requestId };
  }
}
