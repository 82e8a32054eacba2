/** Answers the requests of lib/requests/widget.ts (the confirmation window of a page's widget call). */
import type { WidgetReplies } from '../../requests/widget';
import { confirmWidgetRequest, declineWidgetRequest, pendingWidgetRequest } from '../widget-calls';
import type { Handlers } from './types';

export const widgetHandlers: Handlers<keyof WidgetReplies> = {
  'widget/pending': async (request, ctx) => pendingWidgetRequest(request.ticket, ctx.now()),
  'widget/confirm': async (request, ctx) => confirmWidgetRequest(request.ticket, request.share, ctx.calls, ctx.now()),
  'widget/decline': async (request) => {
    await declineWidgetRequest(request.ticket);
    return null;
  },
};
