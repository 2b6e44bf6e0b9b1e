/**
 * The ROS graph the rosbridge server presents: its topics (what it publishes, what it accepts),
 * its services and their types, and the node that owns them. rosapi (rosapi.ts) answers from
 * this table; the server (server.ts) routes by it.
 */

/** The node every topic and service belongs to (rosapi/nodes). */
export const NODE_NAME = '/terrawheel';

/** Topics the server publishes (clients subscribe). */
export const PUBLISHED_TOPICS = {
  odom: { name: '/odom', type: 'nav_msgs/Odometry' },
  tf: { name: '/tf', type: 'tf2_msgs/TFMessage' },
  jointStates: { name: '/joint_states', type: 'sensor_msgs/JointState' },
  clock: { name: '/clock', type: 'rosgraph_msgs/Clock' },
  contacts: { name: '/terrawheel/contacts', type: 'visualization_msgs/MarkerArray' },
  rosout: { name: '/rosout', type: 'rosgraph_msgs/Log' },
} as const;

/**
 * Topics the server subscribes to (clients publish). Per-joint velocity commands travel as a
 * `sensor_msgs/JointState` whose `name` and `velocity` arrays are used (position and effort
 * ignored): the joint names make a message self-describing, unlike a controller-style
 * `Float64MultiArray` whose order lives in a controller's configuration.
 */
export const SUBSCRIBED_TOPICS = {
  cmdVel: { name: '/cmd_vel', type: 'geometry_msgs/Twist' },
  jointCommands: { name: '/terrawheel/joint_commands', type: 'sensor_msgs/JointState' },
} as const;

/** TerraWheel's own services. */
export const SIM_SERVICES = {
  reset: { name: '/terrawheel/reset', type: 'std_srvs/Trigger' },
  pause: { name: '/terrawheel/pause', type: 'std_srvs/Trigger' },
  resume: { name: '/terrawheel/resume', type: 'std_srvs/Trigger' },
  step: { name: '/terrawheel/step', type: 'terrawheel_msgs/Step' },
} as const;

/** rosapi's services (a subset of rosbridge's rosapi node: what Foxglove, roslib and roslibpy call). */
export const ROSAPI_SERVICES = {
  topics: { name: '/rosapi/topics', type: 'rosapi/Topics' },
  topicsAndRawTypes: { name: '/rosapi/topics_and_raw_types', type: 'rosapi/TopicsAndRawTypes' },
  topicType: { name: '/rosapi/topic_type', type: 'rosapi/TopicType' },
  topicsForType: { name: '/rosapi/topics_for_type', type: 'rosapi/TopicsForType' },
  services: { name: '/rosapi/services', type: 'rosapi/Services' },
  serviceType: { name: '/rosapi/service_type', type: 'rosapi/ServiceType' },
  servicesForType: { name: '/rosapi/services_for_type', type: 'rosapi/ServicesForType' },
  nodes: { name: '/rosapi/nodes', type: 'rosapi/Nodes' },
  nodeDetails: { name: '/rosapi/node_details', type: 'rosapi/NodeDetails' },
  publishers: { name: '/rosapi/publishers', type: 'rosapi/Publishers' },
  subscribers: { name: '/rosapi/subscribers', type: 'rosapi/Subscribers' },
  getTime: { name: '/rosapi/get_time', type: 'rosapi/GetTime' },
  messageDetails: { name: '/rosapi/message_details', type: 'rosapi/MessageDetails' },
  serviceRequestDetails: { name: '/rosapi/service_request_details', type: 'rosapi/ServiceRequestDetails' },
  serviceResponseDetails: { name: '/rosapi/service_response_details', type: 'rosapi/ServiceResponseDetails' },
} as const;

export interface NamedType {
  name: string;
  type: string;
}

/** Every topic, published ones first, in a fixed order. */
export const ALL_TOPICS: readonly NamedType[] = [...Object.values(PUBLISHED_TOPICS), ...Object.values(SUBSCRIBED_TOPICS)];
/** Every service, TerraWheel's first. */
export const ALL_SERVICES: readonly NamedType[] = [...Object.values(SIM_SERVICES), ...Object.values(ROSAPI_SERVICES)];

const TOPIC_TYPE = new Map(ALL_TOPICS.map((t) => [t.name, t.type]));
const SERVICE_TYPE = new Map(ALL_SERVICES.map((s) => [s.name, s.type]));
const PUBLISHED = new Set<string>(Object.values(PUBLISHED_TOPICS).map((t) => t.name));
const SUBSCRIBED = new Set<string>(Object.values(SUBSCRIBED_TOPICS).map((t) => t.name));

/** The type of a topic, or undefined. */
export function topicType(name: string): string | undefined {
  return TOPIC_TYPE.get(name);
}

/** The type of a service, or undefined. */
export function serviceType(name: string): string | undefined {
  return SERVICE_TYPE.get(name);
}

/** The server publishes this topic (a client may subscribe to it). */
export function isPublished(name: string): boolean {
  return PUBLISHED.has(name);
}

/** The server accepts messages on this topic (a client may publish to it). */
export function isSubscribed(name: string): boolean {
  return SUBSCRIBED.has(name);
}

/** The published topic names, for messages. */
export function publishedNames(): string {
  return [...PUBLISHED].join(', ');
}

/** The accepted topic names, for messages. */
export function subscribedNames(): string {
  return [...SUBSCRIBED].join(', ');
}
