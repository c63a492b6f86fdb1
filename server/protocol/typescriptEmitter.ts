// Writes a JSON Schema (as TypeBox produces it) as a TypeScript type expression.
type JsonSchema = Record<string, unknown>;

const identifier = /^[A-Za-z_$][\w$]*$/;

export function toTypeScript(schema: unknown, indent = ''): string {
  if (typeof schema !== 'object' || schema === null) return 'unknown';
  const s = schema as JsonSchema;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map((member) => toTypeScript(member, indent)).join(' | ');
  if (Array.isArray(s.type)) return s.type.map((type) => toTypeScript({ ...s, type }, indent)).join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${toTypeScript(s.items, indent)}>`;
    case 'object':
      return objectType(s, indent);
    default:
      return 'unknown';
  }
}

function objectType(s: JsonSchema, indent: string): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required ?? []) as string[]);
  const inner = `${indent}  `;
  const fields = Object.entries(properties).map(([name, value]) => {
    const key = identifier.test(name) ? name : JSON.stringify(name);
    return `${inner}${key}${required.has(name) ? '' : '?'}: ${toTypeScript(value, inner)};`;
  });
  if (
    s.patternProperties ||
    (typeof s.additionalProperties === 'object' && s.additionalProperties !== null)
  ) {
    const values = (
      s.patternProperties ? Object.values(s.patternProperties)[0] : s.additionalProperties
    ) as unknown;
    if (fields.length === 0) return `Record<string, ${toTypeScript(values, indent)}>`;
  }
  if (fields.length === 0)
    return s.additionalProperties === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${fields.join('\n')}\n${indent}}`;
}
