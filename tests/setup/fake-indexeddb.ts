/**
 * Unit tests run in Node, which has no IndexedDB (and no fake-indexeddb package here). This is an
 * in-memory stand-in for the part lib/idb.ts uses: open with upgrade, transactions that run one at a
 * time per database (as overlapping readwrite transactions do), get/put/add/delete/getAll, commit
 * once no request is pending, rollback on abort, structured-clone copies in and out. Also a
 * BroadcastChannel that stays inside one test file (Node's own reaches other test workers).
 * Installed for every unit test by vitest.config.ts; reset before each test.
 */
import { beforeEach } from 'vitest';

type Key = string | number;
interface StoreData {
  autoIncrement: boolean;
  nextKey: number;
  records: Map<Key, unknown>;
}
interface DbData {
  version: number;
  stores: Map<string, StoreData>;
  /** Transactions run one after another. */
  queue: Promise<unknown>;
}

let databases = new Map<string, DbData>();

class FakeRequest<T = unknown> {
  result!: T;
  error: Error | null = null;
  onsuccess: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
}

class FakeOpenRequest extends FakeRequest<FakeDatabase> {
  onupgradeneeded: ((event: unknown) => void) | null = null;
  onblocked: ((event: unknown) => void) | null = null;
}

// The real timer, taken before any test fakes timers: IndexedDB's events come from the browser's own
// task queue, which a test's fake clock does not hold back.
const later: (run: () => void, ms: number) => unknown = globalThis.setTimeout.bind(globalThis);
const tick = () => new Promise<void>((resolve) => later(resolve, 0));

class FakeTransaction {
  oncomplete: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onabort: ((event: unknown) => void) | null = null;
  error: Error | null = null;
  private pending: (() => void)[] = [];
  private aborted = false;
  private snapshot = new Map<StoreData, { nextKey: number; records: Map<Key, unknown> }>();

  constructor(
    private readonly data: DbData,
    private readonly scope: string[],
    readonly mode: IDBTransactionMode,
  ) {
    for (const name of scope) if (!data.stores.has(name)) throw new Error(`NotFoundError: no object store ${name}`);
  }

  objectStore(name: string): FakeObjectStore {
    if (!this.scope.includes(name)) throw new Error(`NotFoundError: ${name} is not in this transaction`);
    return new FakeObjectStore(this, this.data.stores.get(name)!);
  }

  request<T>(compute: () => T): FakeRequest<T> {
    if (this.aborted) throw new Error('TransactionInactiveError');
    const request = new FakeRequest<T>();
    this.pending.push(() => {
      request.result = compute();
      request.onsuccess?.({ target: request });
    });
    return request;
  }

  write(): void {
    if (this.mode === 'readonly') throw new Error('ReadOnlyError');
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.pending = [];
    for (const [store, saved] of this.snapshot) Object.assign(store, saved);
    later(() => this.onabort?.({ target: this }), 0);
  }

  async run(): Promise<void> {
    // Taken when this transaction's turn comes, so an abort restores what it started from.
    for (const name of this.scope) {
      const store = this.data.stores.get(name)!;
      this.snapshot.set(store, { nextKey: store.nextKey, records: new Map(store.records) });
    }
    await tick();
    while (this.pending.length && !this.aborted) {
      const next = this.pending.shift()!;
      try {
        next();
      } catch (error) {
        this.error = error as Error;
        this.onerror?.({ target: this });
        this.abort();
        return;
      }
      await tick();
    }
    if (!this.aborted) this.oncomplete?.({ target: this });
  }
}

class FakeObjectStore {
  constructor(
    private readonly tx: FakeTransaction,
    private readonly store: StoreData,
  ) {}

  private target(): StoreData {
    return this.store;
  }

  get(key: Key) {
    return this.tx.request(() => structuredClone(this.target().records.get(key)));
  }

  getAll() {
    return this.tx.request(() => [...this.sorted()].map(([, value]) => structuredClone(value)));
  }

  getAllKeys() {
    return this.tx.request(() => [...this.sorted()].map(([key]) => key));
  }

  put(value: unknown, key?: Key) {
    this.tx.write();
    const copy = structuredClone(value);
    return this.tx.request(() => this.set(copy, key, true));
  }

  add(value: unknown, key?: Key) {
    this.tx.write();
    const copy = structuredClone(value);
    return this.tx.request(() => this.set(copy, key, false));
  }

  delete(key: Key) {
    this.tx.write();
    return this.tx.request(() => void this.target().records.delete(key));
  }

  clear() {
    this.tx.write();
    return this.tx.request(() => void this.target().records.clear());
  }

  private set(value: unknown, key: Key | undefined, overwrite: boolean): Key {
    const store = this.target();
    let k = key;
    if (k === undefined) {
      if (!store.autoIncrement) throw new Error('DataError: no key given for a store without autoIncrement');
      k = store.nextKey++;
    }
    if (!overwrite && store.records.has(k)) throw new Error('ConstraintError: key exists');
    store.records.set(k, value);
    return k;
  }

  private sorted(): [Key, unknown][] {
    return [...this.target().records].sort(([a], [b]) => (typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1));
  }
}

/** Open connections; a reset closes them (as the browser does when a database is deleted under them). */
let connections = new Set<FakeDatabase>();

class FakeDatabase {
  onversionchange: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  constructor(
    readonly name: string,
    private readonly data: DbData,
  ) {
    connections.add(this);
  }

  get version() {
    return this.data.version;
  }

  objectStoreNames = { contains: (name: string) => this.data.stores.has(name) };

  createObjectStore(name: string, options: { autoIncrement?: boolean } = {}) {
    this.data.stores.set(name, { autoIncrement: options.autoIncrement === true, nextKey: 1, records: new Map() });
  }

  transaction(names: string | string[], mode: IDBTransactionMode = 'readonly') {
    const tx = new FakeTransaction(this.data, Array.isArray(names) ? names : [names], mode);
    const turn = this.data.queue.then(() => tx.run());
    this.data.queue = turn.catch(() => undefined);
    return tx;
  }

  close() {
    connections.delete(this);
  }
}

export const fakeIndexedDB = {
  open(name: string, version = 1) {
    const request = new FakeOpenRequest();
    later(() => {
      let data = databases.get(name);
      if (data && version < data.version) {
        request.error = new Error('VersionError');
        request.onerror?.({ target: request });
        return;
      }
      const upgrade = !data || version > data.version;
      if (!data) databases.set(name, (data = { version, stores: new Map(), queue: Promise.resolve() }));
      data.version = version;
      request.result = new FakeDatabase(name, data);
      if (upgrade) request.onupgradeneeded?.({ target: request });
      request.onsuccess?.({ target: request });
    }, 0);
    return request;
  },
  deleteDatabase(name: string) {
    databases.delete(name);
    const request = new FakeRequest();
    later(() => request.onsuccess?.({ target: request }), 0);
    return request;
  },
};

/** Every channel object of one name, in this test file only. */
const channels = new Map<string, Set<FakeBroadcastChannel>>();
class FakeBroadcastChannel {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  private listeners = new Set<(event: { data: unknown }) => void>();
  constructor(readonly name: string) {
    if (!channels.has(name)) channels.set(name, new Set());
    channels.get(name)!.add(this);
  }
  postMessage(data: unknown) {
    const copy = structuredClone(data);
    for (const other of channels.get(this.name) ?? []) {
      if (other === this) continue;
      later(() => {
        other.onmessage?.({ data: copy });
        for (const listener of other.listeners) listener({ data: copy });
      }, 0);
    }
  }
  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
    this.listeners.delete(listener);
  }
  close() {
    channels.get(this.name)?.delete(this);
  }
}

export function resetFakeIndexedDb(): void {
  databases = new Map();
  const open = connections;
  connections = new Set();
  for (const db of open) db.onclose?.({ target: db });
}

Object.assign(globalThis, { indexedDB: fakeIndexedDB, BroadcastChannel: FakeBroadcastChannel });
beforeEach(() => resetFakeIndexedDb());
