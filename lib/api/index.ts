export * from './client';
export * from './errors';
export * from './schemas';
export * from './schedule';
export { clearRouteMemory, rememberedRoutes, ROUTE_KEYS } from './routes';
export type { RouteForm, RouteForms, RouteKey, RouteMemoryStore } from './routes';
export { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES } from './http';
export type { HttpConfig, RetryPolicy, Sleep } from './http';
