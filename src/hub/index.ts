export * from './client.ts';
export * from './errors.ts';
export * from './queries.ts';
export { filenameFromContentDisposition } from './content-disposition.ts';
export type { FetchLike, TransportOptions } from './transport.ts';
