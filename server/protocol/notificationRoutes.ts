// Notifications as one discriminated union, and routing by method through a table whose handlers get
// their method's own params: the tree model, the feeds and the webview reducer all route this way, so
// renaming a notification or one of its fields breaks every reader at compile time.
import type { NotificationMethod, NotificationParamsOf } from './methods';

type ParamsByMethod = { [N in NotificationMethod]: NotificationParamsOf<N> };

/** A server notification whose params match its method's schema (see extension/client/notificationCheck). */
export type ServerNotification<N extends NotificationMethod = NotificationMethod> = {
  [K in N]: { method: K; params: ParamsByMethod[K] };
}[N];

/** Handlers for the methods a reader cares about; `A` are arguments passed before the params. */
export type NotificationHandlers<R, A extends unknown[] = []> = {
  [N in NotificationMethod]?: (...args: [...A, ParamsByMethod[N]]) => R;
};

/** Calls the handler for the notification's method with its params; undefined when there is none. */
export function routeNotification<N extends NotificationMethod, R, A extends unknown[]>(
  handlers: NotificationHandlers<R, A>,
  notification: ServerNotification<N>,
  ...args: A
): R | undefined {
  const handler = handlers[notification.method];
  return handler?.(...args, notification.params);
}

/** Narrows a notification to one method's. */
export function isNotification<N extends NotificationMethod>(
  notification: ServerNotification,
  method: N,
): notification is Extract<ServerNotification, { method: N }> {
  return notification.method === method;
}
