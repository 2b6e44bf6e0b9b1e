/**
 * The part of rosbridge's `rosapi` node that clients call to discover a graph: topic and service
 * lists with their types, full message definitions, the node and what it publishes, the clock.
 * Foxglove's and Lichtblick's Rosbridge connection call `/rosapi/topics_and_raw_types` (topics,
 * types and the `gendeps --cat` text of each type, from which they build their message readers;
 * a `rosgraph_msgs/Log` among the types tells them the graph is ROS 1), then `/rosapi/nodes` and
 * `/rosapi/node_details` for each node, and `/rosapi/service_type` before a service call; roslib
 * and roslibpy expose the others (getTopics, getServices, getTopicType, getMessageDetails, …).
 *
 * Every answer comes from catalog.ts and msg-defs.ts: the graph is fixed for a server's life.
 */
import { ALL_SERVICES, ALL_TOPICS, NODE_NAME, PUBLISHED_TOPICS, ROSAPI_SERVICES, SUBSCRIBED_TOPICS, serviceType, topicType } from './catalog';
import { rosTime } from './messages';
import { fullDefinition, messageSpec, typeDefs } from './msg-parse';

/** A rosapi call that cannot be answered (unknown name or type): the service_response's error. */
export class RosapiError extends Error {}

/** What rosapi needs of the server at call time. */
export interface RosapiContext {
  /** [s] Simulated time now. */
  time: number;
}

type Args = Record<string, unknown>;
type Handler = (args: Args, ctx: RosapiContext) => Record<string, unknown>;

const topicNames = () => ALL_TOPICS.map((t) => t.name);
const topicTypes = () => ALL_TOPICS.map((t) => t.type);

const HANDLERS: Readonly<Record<string, Handler>> = {
  [ROSAPI_SERVICES.topics.name]: () => ({ topics: topicNames(), types: topicTypes() }),
  [ROSAPI_SERVICES.topicsAndRawTypes.name]: () => ({ topics: topicNames(), types: topicTypes(), typedefs_full_text: ALL_TOPICS.map((t) => fullDefinition(t.type)) }),
  [ROSAPI_SERVICES.topicType.name]: (a) => ({ type: topicType(String(a.topic)) ?? '' }),
  [ROSAPI_SERVICES.topicsForType.name]: (a) => ({ topics: ALL_TOPICS.filter((t) => t.type === a.type).map((t) => t.name) }),
  [ROSAPI_SERVICES.services.name]: () => ({ services: ALL_SERVICES.map((s) => s.name) }),
  [ROSAPI_SERVICES.serviceType.name]: (a) => ({ type: serviceType(String(a.service)) ?? '' }),
  [ROSAPI_SERVICES.servicesForType.name]: (a) => ({ services: ALL_SERVICES.filter((s) => s.type === a.type).map((s) => s.name) }),
  [ROSAPI_SERVICES.nodes.name]: () => ({ nodes: [NODE_NAME] }),
  [ROSAPI_SERVICES.nodeDetails.name]: (a) =>
    a.node === NODE_NAME
      ? { subscribing: Object.values(SUBSCRIBED_TOPICS).map((t) => t.name), publishing: Object.values(PUBLISHED_TOPICS).map((t) => t.name), services: ALL_SERVICES.map((s) => s.name) }
      : { subscribing: [], publishing: [], services: [] },
  [ROSAPI_SERVICES.publishers.name]: (a) => ({ publishers: Object.values(PUBLISHED_TOPICS).some((t) => t.name === a.topic) ? [NODE_NAME] : [] }),
  [ROSAPI_SERVICES.subscribers.name]: (a) => ({ subscribers: Object.values(SUBSCRIBED_TOPICS).some((t) => t.name === a.topic) ? [NODE_NAME] : [] }),
  [ROSAPI_SERVICES.getTime.name]: (_a, ctx) => ({ time: rosTime(ctx.time) }),
  [ROSAPI_SERVICES.messageDetails.name]: (a) => ({ typedefs: detailsOf(String(a.type)) }),
  [ROSAPI_SERVICES.serviceRequestDetails.name]: (a) => ({ typedefs: serviceHalf(String(a.type), 'Request') }),
  [ROSAPI_SERVICES.serviceResponseDetails.name]: (a) => ({ typedefs: serviceHalf(String(a.type), 'Response') }),
};

function detailsOf(type: string) {
  if (messageSpec(type) === undefined) throw new RosapiError(`message_details: no message type "${type.slice(0, 128)}" here`);
  return typeDefs(type);
}

function serviceHalf(type: string, half: 'Request' | 'Response') {
  const name = `${type}${half}`;
  if (!ALL_SERVICES.some((s) => s.type === type) || messageSpec(name) === undefined) throw new RosapiError(`service_${half.toLowerCase()}_details: no service type "${type.slice(0, 128)}" here`);
  return typeDefs(name);
}

/** True when `service` is one of rosapi's. */
export function isRosapiService(service: string): boolean {
  return Object.hasOwn(HANDLERS, service);
}

/** Answers a rosapi call (args already conformed to its request type); throws RosapiError. */
export function callRosapi(service: string, args: Args, ctx: RosapiContext): Record<string, unknown> {
  const h = Object.hasOwn(HANDLERS, service) ? HANDLERS[service] : undefined;
  if (h === undefined) throw new RosapiError(`no rosapi service ${service}`);
  return h(args, ctx);
}
