/** Client messages of the rosbridge v2 protocol: parsed into ops, or an error naming what is wrong. */
import { describe, expect, it } from 'vitest';
import { MAX_CLIENT_MESSAGE_BYTES, parseClientMessage } from '../../../../sim/live/rosbridge/protocol';
import { SendQueue } from '../../../../sim/live/rosbridge/send-queue';

const parse = (m: unknown) => {
  const text = typeof m === 'string' ? m : JSON.stringify(m);
  return parseClientMessage(text, Buffer.byteLength(text));
};

describe('parseClientMessage', () => {
  it('reads the ops roslib sends', () => {
    expect(parse({ op: 'subscribe', id: 'subscribe:/odom:1', type: 'nav_msgs/Odometry', topic: '/odom', compression: 'none', throttle_rate: 0, queue_length: 0 })).toEqual({
      ok: true,
      op: { op: 'subscribe', id: 'subscribe:/odom:1', topic: '/odom', type: 'nav_msgs/Odometry', throttleRate: 0, queueLength: 0, compression: 'none' },
    });
    expect(parse({ op: 'advertise', topic: '/cmd_vel', type: 'geometry_msgs/msg/Twist', latch: false, queue_size: 100 })).toMatchObject({ ok: true, op: { type: 'geometry_msgs/Twist' } });
    expect(parse({ op: 'call_service', service: 'rosapi/topics', args: {}, id: 7 })).toMatchObject({ ok: true, op: { service: '/rosapi/topics', id: '7' } });
    expect(parse({ op: 'auth', mac: 'secret', client: '', dest: '', rand: '', t: 0, level: 'admin', end: 0 })).toMatchObject({ ok: true, op: { op: 'auth', mac: 'secret' } });
  });

  it('answers every malformed message with an error (and the id when it has one)', () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /not JSON/],
      ['[1,2]', /JSON object/],
      ['null', /JSON object/],
      [{ topic: '/odom' }, /missing "op"/],
      [{ op: 7 }, /missing "op"/],
      [{ op: 'fly' }, /unknown op "fly"/],
      [{ op: 'advertise_service', service: '/x', type: 'std_srvs/Trigger' }, /not supported/],
      [{ op: 'subscribe' }, /"topic" must be a string/],
      [{ op: 'subscribe', topic: 'no spaces allowed' }, /not a ROS name/],
      [{ op: 'subscribe', topic: '/odom', throttle_rate: -5 }, /throttle_rate/],
      [{ op: 'subscribe', topic: '/odom', queue_length: 1.5 }, /queue_length/],
      [{ op: 'subscribe', topic: '/odom', type: 'not a type' }, /ROS type name/],
      [{ op: 'publish', topic: '/cmd_vel' }, /missing "msg"/],
      [{ op: 'call_service', service: '/terrawheel/step', args: 5 }, /"args" must be/],
      [{ op: 'set_level', level: 'loud' }, /level/],
      [{ op: 'service_response', service: '/x' }, /result/],
      [{ op: 'publish', topic: '/cmd_vel', msg: {}, id: { x: 1 } }, /"id" must be a string/],
      [{ op: 'subscribe', topic: '/' + 'a'.repeat(300) }, /longer than/],
    ];
    for (const [m, re] of cases) {
      const r = parse(m);
      expect(r.ok, JSON.stringify(m)).toBe(false);
      if (!r.ok) expect(r.error).toMatch(re);
    }
    expect(parse({ op: 'subscribe', id: 'mine', topic: 3 })).toMatchObject({ ok: false, id: 'mine' });
  });

  it('refuses a message over the size limit before parsing it', () => {
    const r = parseClientMessage('{}', MAX_CLIENT_MESSAGE_BYTES + 1);
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/over the limit/) });
  });
});

/** A socket whose buffer the test fills and drains by hand (the queue reads only bufferedAmount). */
class ScriptedSocket {
  bufferedAmount = 0;
  readonly sent: string[] = [];
  send(text: string): void {
    this.sent.push(text);
    this.bufferedAmount += text.length;
  }
}

describe('SendQueue', () => {
  it('sends at once while the socket keeps up', () => {
    const s = new ScriptedSocket();
    const q = new SendQueue(s, 100);
    q.pushTopic('/odom', 'a', 1);
    expect(q.flush()).toBe(true);
    expect(s.sent).toEqual(['a']);
  });

  it('keeps the newest queue_length messages of a topic for a stuck client, counts the rest, never drops replies', () => {
    const s = new ScriptedSocket();
    s.bufferedAmount = 1000; // stuck: over the high-water mark
    const q = new SendQueue(s, 100);
    for (let i = 0; i < 10; i++) q.pushTopic('/odom', `odom${i}`, 3);
    for (let i = 0; i < 5; i++) q.pushTopic('/tf', `tf${i}`, 0); // queue_length 0 keeps the latest
    q.pushReply('reply');
    expect(q.flush()).toBe(false);
    expect(q.stats()).toMatchObject({ sent: 0, dropped: 7 + 4, droppedByTopic: { '/odom': 7, '/tf': 4 }, pending: 5 });
    s.bufferedAmount = 0; // the client reads again
    expect(q.flush()).toBe(true);
    expect(s.sent).toEqual(['odom7', 'odom8', 'odom9', 'tf4', 'reply']);
  });

  it('tells the caller to disconnect a client that leaves too many replies unread', () => {
    const s = new ScriptedSocket();
    s.bufferedAmount = 1e9;
    const q = new SendQueue(s, 100);
    let ok = true;
    for (let i = 0; i < 2000 && ok; i++) ok = q.pushReply('r');
    expect(ok).toBe(false);
  });
});
