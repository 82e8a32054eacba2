// The schemas' `z` lives in lib/zod.ts, where the page side may reach it too; the api modules keep this name.
export { z } from '../zod';
