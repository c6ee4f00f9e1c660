import { definition, type SchemaOf } from './reader.js';

/**
 * What agent names, pipeline names and step ids are made of: they become path segments of
 * actors (`lead/researcher#2`, `brief/outline`), so they are kept to this alphabet.
 */
export const GRAPH_NAME = /^[A-Za-z0-9_.-]+$/;

/** The published schema's `name` definition: a string of {@link GRAPH_NAME}. */
export const graphNameSchema: SchemaOf = definition('name', () => ({ type: 'string', pattern: GRAPH_NAME.source }));
