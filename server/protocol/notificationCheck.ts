// The one runtime check of a notification against its method's schema, where notifications enter the
// extension (its server client): past it, every reader (the tree model, the feeds, the webview, which
// gets them from the host already checked) routes by method on typed params instead of guarding each
// field. Items of a type this build does not know pass (the protocol grows and the view shows them on
// a generic card); an item of a known type must match it.
import { Type, type TSchema } from '@sinclair/typebox';
import { Errors } from '@sinclair/typebox/errors';
import { Check } from '@sinclair/typebox/value';
import { ThreadItem } from './items';
import { threadItemTypes } from './itemTypes';
import type { NotificationMethod } from './methods';
import type { ServerNotification } from './notificationRoutes';
import { serverNotifications } from './notifications';

const knownItemTypes = Type.Union([...threadItemTypes].map((type) => Type.Literal(type)));
const UnknownItem = Type.Object({
  type: Type.Intersect([Type.String(), Type.Not(knownItemTypes)]),
  id: Type.String(),
});
const AnyItem = Type.Union([ThreadItem, UnknownItem]);

/** The schema with every place that holds a ThreadItem also taking an item of an unknown type. */
function admittingUnknownItems(schema: TSchema): TSchema {
  if (schema === ThreadItem) return AnyItem;
  const copy: TSchema = { ...schema };
  if (schema.properties)
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, TSchema>).map(([k, v]) => [
        k,
        admittingUnknownItems(v),
      ]),
    );
  if (schema.items) copy.items = admittingUnknownItems(schema.items as TSchema);
  for (const key of ['anyOf', 'allOf'] as const)
    if (Array.isArray(schema[key])) copy[key] = (schema[key] as TSchema[]).map(admittingUnknownItems);
  return copy;
}

const checks = new Map<NotificationMethod, TSchema>();

export function isNotificationMethod(method: string): method is NotificationMethod {
  return Object.prototype.hasOwnProperty.call(serverNotifications, method);
}

/** The notification, typed, when its method is known and its params match; otherwise undefined. */
export function checkNotification(method: string, params: unknown): ServerNotification | undefined {
  if (!isNotificationMethod(method)) return undefined;
  let schema = checks.get(method);
  if (!schema) checks.set(method, (schema = admittingUnknownItems(serverNotifications[method])));
  if (!Check(schema, params)) return undefined;
  // Checked against this method's own schema just above: the pair is one member of the union.
  return { method, params } as ServerNotification;
}

/** Why a notification failed its check, for a log line (the first mismatch only). */
export function notificationProblem(method: string, params: unknown): string {
  if (!isNotificationMethod(method)) return `unknown notification ${method}`;
  const schema = checks.get(method) ?? admittingUnknownItems(serverNotifications[method]);
  const first = Errors(schema, params).First();
  return first ? `${method}: ${first.path || 'params'} ${first.message}` : `${method}: does not match`;
}
