// Small builders over TypeBox shared by every protocol module.
import { Type, type SchemaOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** A value that may be null on the wire. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An optional field that also accepts null, as most Codex params do. */
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/**
 * Marks a params or result field, or one member of a union, as experimental: using it requires
 * `capabilities.experimentalApi`, and the stable schema output leaves it out.
 */
export const Experimental = <T extends TSchema>(schema: T): T => ({ ...schema, 'x-experimental': true });

export function isExperimental(schema: unknown): boolean {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    (schema as Record<string, unknown>)['x-experimental'] === true
  );
}

/** A union of string literals. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnsafe<T[number]>;

/** Params objects: unknown fields are ignored so newer clients keep working. */
export const Params = <T extends Parameters<typeof Type.Object>[0]>(
  properties: T,
  options: SchemaOptions = {},
) => Type.Object(properties, { additionalProperties: true, ...options });

/** Results and notifications: exactly the listed fields. */
export const Shape = <T extends Parameters<typeof Type.Object>[0]>(
  properties: T,
  options: SchemaOptions = {},
) => Type.Object(properties, options);

export const Seconds = Type.Integer({ description: 'Unix timestamp in seconds' });
export const EmptyObject = Type.Object({});
