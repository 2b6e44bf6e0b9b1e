/**
 * One client's outgoing messages: what the simulation publishes is put here and never waits for
 * the network. A flush hands messages to the socket while the socket's own buffer is under its
 * high-water mark; what cannot go out yet waits here, under two bounds:
 *
 *   - topic messages: at most `limit` per topic wait (the subscription's queue_length, at least
 *     1); a newer one drops the oldest of its topic. A slow client thus sees the latest state,
 *     with gaps, and each drop is counted per topic.
 *   - replies (service responses, status messages) are never dropped; if more than
 *     MAX_PENDING_REPLIES wait, the client is not reading at all and the caller disconnects it.
 *
 * Memory per client is therefore bounded by the socket's high-water mark, one batch of topic
 * messages per topic times its queue length, and MAX_PENDING_REPLIES replies.
 */

/** [bytes] The socket's buffered amount above which nothing more is handed to it. */
export const SOCKET_HIGH_WATER_BYTES = 1024 * 1024;
/** Replies waiting for a client that does not read, beyond which it is disconnected. */
export const MAX_PENDING_REPLIES = 1000;

/** The part of a WebSocket the queue uses. */
export interface QueueSocket {
  readonly bufferedAmount: number;
  send(data: string | Uint8Array): void;
}

/** A message as sent: JSON text, or CBOR bytes (a binary frame). */
export type Outgoing = string | Uint8Array;

interface Entry {
  /** null once dropped. */
  text: Outgoing | null;
  /** The topic, or null for a reply. */
  topic: string | null;
}

/** Counters of one client's queue. */
export interface SendQueueStats {
  sent: number;
  /** Topic messages dropped (a newer message of the topic replaced them while the client was behind). */
  dropped: number;
  droppedByTopic: Record<string, number>;
  /** Messages waiting now. */
  pending: number;
}

export class SendQueue {
  private entries: Entry[] = [];
  private head = 0;
  private readonly perTopic = new Map<string, number>();
  private replies = 0;
  private sent = 0;
  private dropped = 0;
  private readonly droppedByTopic = new Map<string, number>();

  constructor(private readonly socket: QueueSocket, private readonly highWater = SOCKET_HIGH_WATER_BYTES) {}

  /** Queues a topic message, dropping the oldest waiting one of its topic beyond `limit` (≥ 1). */
  pushTopic(topic: string, text: Outgoing, limit: number): void {
    const waiting = this.perTopic.get(topic) ?? 0;
    if (waiting >= Math.max(1, limit)) {
      for (let i = this.head; i < this.entries.length; i++) {
        const e = this.entries[i];
        if (e.topic === topic && e.text !== null) {
          e.text = null;
          this.dropped++;
          this.droppedByTopic.set(topic, (this.droppedByTopic.get(topic) ?? 0) + 1);
          this.perTopic.set(topic, waiting - 1);
          break;
        }
      }
    }
    this.entries.push({ text, topic });
    this.perTopic.set(topic, (this.perTopic.get(topic) ?? 0) + 1);
  }

  /** Queues a reply (never dropped). False when the client has too many unread: disconnect it. */
  pushReply(text: string): boolean {
    this.entries.push({ text, topic: null });
    this.replies++;
    return this.replies <= MAX_PENDING_REPLIES;
  }

  /** Hands waiting messages to the socket while it is under its high-water mark. True when none wait. */
  flush(): boolean {
    while (this.head < this.entries.length && this.socket.bufferedAmount < this.highWater) {
      const e = this.entries[this.head++];
      if (e.topic === null) this.replies--;
      else if (e.text !== null) this.perTopic.set(e.topic, (this.perTopic.get(e.topic) ?? 1) - 1);
      if (e.text === null) continue;
      this.socket.send(e.text);
      this.sent++;
    }
    // compact once the consumed prefix dominates (amortised O(1) per message)
    if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return this.head >= this.entries.length;
  }

  /** Topic messages dropped so far. */
  get droppedTotal(): number {
    return this.dropped;
  }

  /** Replies waiting. */
  get pendingReplies(): number {
    return this.replies;
  }

  /** Messages waiting (dropped ones excluded). */
  get pending(): number {
    let n = 0;
    for (let i = this.head; i < this.entries.length; i++) if (this.entries[i].text !== null) n++;
    return n;
  }

  stats(): SendQueueStats {
    return { sent: this.sent, dropped: this.dropped, droppedByTopic: Object.fromEntries(this.droppedByTopic), pending: this.pending };
  }
}
