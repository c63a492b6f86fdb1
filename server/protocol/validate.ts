// Runtime validation of incoming params against the method table. A method's first calls are
// checked by walking its schema; its check is compiled only once it is called often, so starting
// the server (and answering `initialize`) compiles nothing.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import { Value, type ValueErrorIterator } from '@sinclair/typebox/value';
import { handshakeRequest } from './initialize';
import { methodSchemas } from './lazySchemas';
import type { ClientMethod, MethodSpec, ParamsOf } from './methods';
import { isExperimental } from './schema';

interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): ValueErrorIterator;
}

/**
 * Compiling a method's check costs ~2 ms (`initialize`'s, measured), as much as ~70 walks of its
 * schema over typical params (~30 µs each; `initialize`'s first, 0.2 ms), and most methods are
 * called a few times a session. Compiling once the walks have cost about as much keeps every
 * method within twice the cheaper of the two.
 */
const WALKS_BEFORE_COMPILING = 64;

const walks = new Map<ClientMethod, number>();
const compiled = new Map<ClientMethod, Checker>();

/** The table's entry of a method; the handshake's without building the rest of the table. */
function specOf(method: ClientMethod): MethodSpec {
  return method === 'initialize' ? handshakeRequest.initialize : methodSchemas().clientRequests[method];
}

export function isClientMethod(method: string): method is ClientMethod {
  return (
    method === 'initialize' || Object.prototype.hasOwnProperty.call(methodSchemas().clientRequests, method)
  );
}

function checker(method: ClientMethod): Checker {
  const found = compiled.get(method);
  if (found) return found;
  const schema = specOf(method).params;
  const count = (walks.get(method) ?? 0) + 1;
  if (count <= WALKS_BEFORE_COMPILING) {
    walks.set(method, count);
    return { Check: (value) => Value.Check(schema, value), Errors: (value) => Value.Errors(schema, value) };
  }
  const check = TypeCompiler.Compile(schema);
  compiled.set(method, check);
  walks.delete(method);
  return check;
}

export type Validated<M extends ClientMethod> =
  { ok: true; value: ParamsOf<M> } | { ok: false; message: string };

export function validateParams<M extends ClientMethod>(method: M, raw: unknown): Validated<M> {
  // The spec's own examples omit params for methods whose params are all optional.
  const params = raw === undefined || raw === null ? {} : raw;
  if (Array.isArray(params))
    return { ok: false, message: 'Invalid params: expected an object, got an array' };
  const check = checker(method);
  // The check is of the schema ParamsOf<M> is derived from.
  if (check.Check(params)) return { ok: true, value: params as ParamsOf<M> };
  return { ok: false, message: `Invalid params: ${describeError(check, params)}` };
}

function describeError(check: Checker, value: unknown): string {
  const first = check.Errors(value).First();
  if (!first) return 'does not match the schema';
  const path = first.path.replace(/^\//, '').replace(/\//g, '.') || 'params';
  const got = first.value === undefined ? 'missing' : `got ${describeValue(first.value)}`;
  return `${path}: ${expectation(first.schema)} (${got})`;
}

function expectation(schema: TSchema): string {
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return `expected one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return `expected ${JSON.stringify(s.const)}`;
  if (Array.isArray(s.anyOf)) {
    const options = (s.anyOf as TSchema[]).map((o) => expectation(o).replace(/^expected /, ''));
    return `expected ${[...new Set(options)].join(' or ')}`;
  }
  const bounds = [
    typeof s.minimum === 'number' ? `>= ${s.minimum}` : '',
    typeof s.minLength === 'number' && s.minLength > 0 ? `non-empty` : '',
  ].filter(Boolean);
  const type = typeof s.type === 'string' ? s.type : 'a valid value';
  return `expected ${bounds.includes('non-empty') ? 'non-empty ' : ''}${type}${bounds
    .filter((b) => b !== 'non-empty')
    .map((b) => ` ${b}`)
    .join('')}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** The descriptor of the experimental method or field this request uses, if any. */
export function experimentalUse(method: ClientMethod, params: object): string | undefined {
  const spec = specOf(method);
  if (spec.experimental) return method;
  const properties = (spec.params as { properties?: Record<string, TSchema> }).properties ?? {};
  const given = new Map(Object.entries(params));
  for (const [field, schema] of Object.entries(properties)) {
    if (isExperimental(schema) && given.get(field) !== undefined && given.get(field) !== null)
      return `${method}.${field}`;
  }
  return undefined;
}
