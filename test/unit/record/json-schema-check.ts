/**
 * A small JSON-schema checker for the subset the Foxglove schemas and ours use: type (object,
 * array, string, number, integer, boolean), properties, required, items, minimum, maximum,
 * oneOf of consts (enums). Returns the list of problems (empty = valid). Unknown keywords are
 * ignored; an unknown `type` is a problem (so a schema the checker does not understand fails).
 */
type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  oneOf?: { const?: unknown }[];
};

export function checkJsonSchema(schema: Schema, value: unknown, path = '$', out: string[] = []): string[] {
  if (schema.oneOf && schema.oneOf.every((o) => 'const' in o)) {
    if (!schema.oneOf.some((o) => o.const === value)) out.push(`${path}: ${JSON.stringify(value)} is none of ${schema.oneOf.map((o) => o.const).join(', ')}`);
    return out;
  }
  switch (schema.type) {
    case undefined:
      return out;
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        out.push(`${path}: expected an object`);
        return out;
      }
      const v = value as Record<string, unknown>;
      for (const k of schema.required ?? []) if (!(k in v)) out.push(`${path}.${k}: missing`);
      for (const [k, s] of Object.entries(schema.properties ?? {})) if (k in v) checkJsonSchema(s, v[k], `${path}.${k}`, out);
      return out;
    }
    case 'array':
      if (!Array.isArray(value)) {
        out.push(`${path}: expected an array`);
        return out;
      }
      if (schema.items) value.forEach((x, i) => checkJsonSchema(schema.items!, x, `${path}[${i}]`, out));
      return out;
    case 'string':
      if (typeof value !== 'string') out.push(`${path}: expected a string`);
      return out;
    case 'boolean':
      if (typeof value !== 'boolean') out.push(`${path}: expected a boolean`);
      return out;
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) out.push(`${path}: expected a finite number`);
      else if (schema.type === 'integer' && !Number.isInteger(value)) out.push(`${path}: expected an integer, got ${value}`);
      else if (schema.minimum !== undefined && value < schema.minimum) out.push(`${path}: ${value} < minimum ${schema.minimum}`);
      else if (schema.maximum !== undefined && value > schema.maximum) out.push(`${path}: ${value} > maximum ${schema.maximum}`);
      return out;
    default:
      out.push(`${path}: schema type ${schema.type} not understood by the checker`);
      return out;
  }
}
