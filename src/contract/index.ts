// Every shape of the public contract, for the generated reference: a schema registered with an id
// in any of these files becomes a component of /openapi.json.
export * from './schemas.js';
export * from './series.js';
export * from './browse.js';
export * from './feeds.js';
export * from './catalogExport.js';
