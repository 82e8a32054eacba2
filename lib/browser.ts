// The one place that touches the extension API: webextension-polyfill gives Chrome and Firefox the same promise API.
import browser from 'webextension-polyfill';
export { browser };
export type { Browser, Runtime, Tabs } from 'webextension-polyfill';
