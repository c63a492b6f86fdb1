// Checks what our server sends against the reference server's JSON Schema (Codex 0.169), the
// authority on the shapes of messages. Methods the reference does not define are skipped.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { repoRoot } from './paths';

const SCHEMA = join('shared', 'spec', 'codex-0.169-schema');

/**
 * The reference schema lives beside the repository (`../shared/spec`), not in it. A clone elsewhere
 * finds it through THREADLINE_SPEC_SCHEMA_DIR, an ancestor folder, or the workspace's /work/shared.
 */
function findSchemaDir(): string {
  const candidates = [process.env.THREADLINE_SPEC_SCHEMA_DIR].filter((d): d is string => !!d);
  for (let dir = repoRoot; dirname(dir) !== dir; dir = dirname(dir))
    candidates.push(join(dirname(dir), SCHEMA));
  candidates.push(join('/work', SCHEMA));
  const found = candidates.find((dir) => existsSync(join(dir, 'codex_app_server_protocol.v2.schemas.json')));
  if (!found) {
    throw new Error(
      `the reference schema was not found; looked in:\n  ${candidates.join('\n  ')}\n` +
        'set THREADLINE_SPEC_SCHEMA_DIR to the folder that holds codex_app_server_protocol.v2.schemas.json',
    );
  }
  return found;
}

interface Table {
  oneOf: {
    properties: { method: { enum: string[] }; params?: { $ref?: string; type?: string; anyOf?: unknown[] } };
  }[];
}

let state:
  | {
      ajv: Ajv;
      responses: Map<string, string>;
      notifications: Map<string, number>;
      serverRequests: Map<string, number>;
      compiled: Map<string, ValidateFunction>;
      clientMethods: ClientMethodEntry[];
    }
  | undefined;

/** One client request of the reference schema: its method and whether it takes no params at all. */
export interface ClientMethodEntry {
  method: string;
  paramsOptional: boolean;
}

function load() {
  if (state) return state;
  const schemaDir = findSchemaDir();
  const v2 = JSON.parse(readFileSync(join(schemaDir, 'codex_app_server_protocol.v2.schemas.json'), 'utf8'));
  const main = JSON.parse(readFileSync(join(schemaDir, 'codex_app_server_protocol.schemas.json'), 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(v2, 'v2');
  ajv.addSchema(main, 'main');
  const responses = new Map<string, string>();
  for (const entry of (v2.definitions.ClientRequest as Table).oneOf) {
    const params = entry.properties.params?.$ref?.split('/').pop();
    const response = params?.replace(/Params$/, 'Response');
    if (response && v2.definitions[response])
      responses.set(entry.properties.method.enum[0]!, `v2#/definitions/${response}`);
  }
  responses.set('initialize', 'main#/definitions/InitializeResponse');
  // Results not named after their params.
  responses.set('config/value/write', 'v2#/definitions/ConfigWriteResponse');
  responses.set('config/batchWrite', 'v2#/definitions/ConfigWriteResponse');
  responses.set('configRequirements/read', 'v2#/definitions/ConfigRequirementsReadResponse');
  responses.set('windowsSandbox/readiness', 'v2#/definitions/WindowsSandboxReadinessResponse');
  // Params that may be null (anyOf) name no $ref above.
  responses.set('account/usage/read', 'v2#/definitions/GetAccountTokenUsageResponse');
  const indexOf = (table: Table) =>
    new Map(table.oneOf.map((entry, i) => [entry.properties.method.enum[0]!, i]));
  state = {
    ajv,
    responses,
    notifications: indexOf(v2.definitions.ServerNotification as Table),
    serverRequests: indexOf(main.definitions.ServerRequest as Table),
    compiled: new Map(),
    clientMethods: (main.definitions.ClientRequest as Table).oneOf.map(
      ({ properties: { method, params } }) => ({
        method: method.enum[0]!,
        paramsOptional: !params || params.type === 'null' || !!params.anyOf,
      }),
    ),
  };
  return state;
}

function check(ref: string, value: unknown, label: string): string[] {
  const s = load();
  let validate = s.compiled.get(ref);
  if (!validate) {
    validate = s.ajv.compile({ $ref: ref });
    s.compiled.set(ref, validate);
  }
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
  return [`${label}: ${errors.join('; ')} in ${JSON.stringify(value).slice(0, 400)}`];
}

/** Every client request of the reference's stable schema, in its order. */
export const referenceClientMethods = (): ClientMethodEntry[] => load().clientMethods;

interface Message {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** Problems with one message the server sent; `requestMethod` names the request a response answers. */
export function validateServerMessage(message: Message, requestMethod?: string): string[] {
  const s = load();
  if (typeof message.method === 'string') {
    const method = message.method;
    const table = message.id === undefined ? s.notifications : s.serverRequests;
    const index = table.get(method);
    if (index === undefined) return [];
    const ref =
      message.id === undefined
        ? `v2#/definitions/ServerNotification/oneOf/${index}`
        : `main#/definitions/ServerRequest/oneOf/${index}`;
    return check(ref, message, `${method} ${message.id === undefined ? 'notification' : 'request'}`);
  }
  if ('error' in message) {
    const error = message.error as { code?: unknown; message?: unknown };
    return Number.isInteger(error?.code) && typeof error?.message === 'string'
      ? []
      : [`error response without an integer code and a message: ${JSON.stringify(message)}`];
  }
  const ref = requestMethod ? s.responses.get(requestMethod) : undefined;
  return ref ? check(ref, message.result, `${requestMethod} result`) : [];
}
