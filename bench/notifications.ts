// npm run bench -- notifications
// 1. From POST /nc-internal/events to the event arriving on an open /nc/stream (EventSource), one
//    event at a time: the queue worker's pickup + delivery transaction + the stream's poll.
//    And up to the item being in the inbox (the worker's part alone).
// 2. GET /nc/inbox (first page and a deep page) and the count, with 300 items in the inbox.
// 3. Key-value storage PUT and GET, for comparison in the same run.
import { EventSource } from 'eventsource';
import { benchStack, internalApi, json, round, stats, timed } from './lib';

export async function run(): Promise<void> {
  const stack = await benchStack();
  try {
    const internal = internalApi(stack);
    const user = (await internal('/internal/users', { user_name: 'bench', locale: 'en' })).data;
    const token = (await internal('/internal/tokens', { user_id: user.id, extension_id: 'bench', claims: ['*'] })).data
      .access_token;
    const headers = { authorization: `Bearer ${token}` };

    // 1. event -> stream
    const arrived = new Map<string, number>();
    const source = new EventSource(`${stack.baseUrl}/nc/stream`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
    });
    await new Promise<void>((resolve) => (source.onopen = () => resolve()));
    source.addEventListener('notifications', (event) => arrived.set(JSON.parse(event.data).item_id, Date.now()));
    const toStream: number[] = [];
    for (let i = 0; i < 50; i++) {
      const sent = Date.now();
      const before = arrived.size;
      await internal('/nc-internal/events', { event_name: 'TEST.V1', data: { user_ids: [user.id] } });
      while (arrived.size === before) await new Promise((resolve) => setTimeout(resolve, 5));
      toStream.push([...arrived.values()].at(-1)! - sent);
    }
    source.close();

    // the same path up to the item being in the inbox (polling the count every 10 ms)
    const countNow = async () =>
      (await fetch(`${stack.baseUrl}/nc/inbox/count`, { headers }).then(json)).data.count as number;
    const toInbox: number[] = [];
    for (let i = 0; i < 20; i++) {
      const before = await countNow();
      const sent = Date.now();
      await internal('/nc-internal/events', { event_name: 'TEST.V1', data: { user_ids: [user.id] } });
      while ((await countNow()) === before) await new Promise((resolve) => setTimeout(resolve, 10));
      toInbox.push(Date.now() - sent);
    }

    // 2. the inbox with 300 items
    for (let i = 0; i < 230; i++)
      await internal('/nc-internal/events', { event_name: 'TEST.V1', data: { user_ids: [user.id] } });
    while ((await fetch(`${stack.baseUrl}/nc/inbox/count`, { headers }).then(json)).data.count < 300) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const get = (path: string) => () => fetch(`${stack.baseUrl}${path}`, { headers }).then(json);
    const sample = async (fn: () => Promise<unknown>, n = 50) => {
      await fn();
      const samples: number[] = [];
      for (let i = 0; i < n; i++) samples.push((await timed(fn))[0]);
      return stats(samples);
    };
    const firstPage = await sample(get('/nc/inbox'));
    const deepPage = await sample(get('/nc/inbox?page=25&page_size=10'));
    const count = await sample(get('/nc/inbox/count'));

    // 3. storage
    const storage = (operation: string, body: unknown) =>
      fetch(`${stack.baseUrl}/api/mktplace/storage/users?operation=${operation}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(json);
    let n = 0;
    const put = await sample(() =>
      storage('PUT', { id: user.id, key: `k${n++}`, data: { crop: 'soy', plots: [1, 2, 3] } }),
    );
    const read = await sample(() => storage('GET', { ids: [user.id], keys: ['k1', 'k2', 'k3'] }));

    console.log(
      JSON.stringify(
        {
          notifications: {
            'POST /nc-internal/events -> event on the open stream (ms)': stats(toStream),
            'POST /nc-internal/events -> item in the inbox (ms)': stats(toInbox),
            'GET /nc/inbox, 300 items, page 0 (ms)': firstPage,
            'GET /nc/inbox, 300 items, page 25 (ms)': deepPage,
            'GET /nc/inbox/count (ms)': count,
            'storage PUT (ms)': put,
            'storage GET 3 keys (ms)': read,
            'stream poll interval (ms)': round(500),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await stack.dispose();
  }
}
