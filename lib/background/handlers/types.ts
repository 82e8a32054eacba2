/** The shape of a feature's request handlers: one function per request type, typed by its reply. */
import type { ReplyData, RequestOf, UiRequestType } from '../../messages';
import type { CallsService } from '../calls-service';

export interface HandlerContext {
  calls: CallsService;
  openPanel: (callId?: string) => Promise<void>;
  now: () => number;
}

export type Handlers<T extends UiRequestType> = {
  [K in T]: (request: RequestOf<K>, ctx: HandlerContext) => Promise<K extends keyof ReplyData ? ReplyData[K] : unknown>;
};
