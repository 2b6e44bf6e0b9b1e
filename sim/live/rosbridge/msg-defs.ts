/**
 * ROS 1 message and service definitions of every type the rosbridge server speaks, as `.msg`
 * text, written from the ROS message field lists (names, types and constants are facts of the
 * ROS interfaces; the comments are ours). ROS 1 flavour throughout: type names without `/msg/`,
 * `std_msgs/Header` with `seq`, `time` and `duration` as `{ secs, nsecs }` in JSON, which is
 * what roslib, roslibpy and rosbridge's ROS 1 server use and what Foxglove's Rosbridge
 * connection expects when it finds `rosgraph_msgs/Log` among the types.
 *
 * Inside a definition a type of the same package is written by its short name and `Header`
 * means `std_msgs/Header`, as in ROS; `fullDefinition` resolves both (msg-parse.ts).
 */

/** Message definitions by full type name. */
export const MESSAGE_DEFINITIONS: Readonly<Record<string, string>> = {
  'std_msgs/Header': `# Sequence number, time stamp and coordinate frame of stamped data.
uint32 seq
time stamp
string frame_id
`,
  'std_msgs/ColorRGBA': `float32 r
float32 g
float32 b
float32 a
`,
  'std_msgs/Float64MultiArray': `std_msgs/MultiArrayLayout layout
float64[] data
`,
  'std_msgs/MultiArrayLayout': `std_msgs/MultiArrayDimension[] dim
uint32 data_offset
`,
  'std_msgs/MultiArrayDimension': `string label
uint32 size
uint32 stride
`,
  'geometry_msgs/Vector3': `float64 x
float64 y
float64 z
`,
  'geometry_msgs/Point': `float64 x
float64 y
float64 z
`,
  'geometry_msgs/Quaternion': `float64 x
float64 y
float64 z
float64 w
`,
  'geometry_msgs/Pose': `Point position
Quaternion orientation
`,
  'geometry_msgs/PoseWithCovariance': `Pose pose
# Row-major 6x6 covariance of (x, y, z, roll, pitch, yaw).
float64[36] covariance
`,
  'geometry_msgs/Twist': `# Linear velocity [m/s] and angular velocity [rad/s].
Vector3 linear
Vector3 angular
`,
  'geometry_msgs/TwistWithCovariance': `Twist twist
# Row-major 6x6 covariance of (vx, vy, vz, wx, wy, wz).
float64[36] covariance
`,
  'geometry_msgs/Transform': `Vector3 translation
Quaternion rotation
`,
  'geometry_msgs/TransformStamped': `# The pose of child_frame_id in header.frame_id.
Header header
string child_frame_id
Transform transform
`,
  'nav_msgs/Odometry': `# Pose in header.frame_id; twist in child_frame_id.
Header header
string child_frame_id
geometry_msgs/PoseWithCovariance pose
geometry_msgs/TwistWithCovariance twist
`,
  'tf2_msgs/TFMessage': `geometry_msgs/TransformStamped[] transforms
`,
  'sensor_msgs/JointState': `# Parallel arrays by joint: position [rad|m], velocity [rad/s|m/s], effort [N m|N].
Header header
string[] name
float64[] position
float64[] velocity
float64[] effort
`,
  'rosgraph_msgs/Clock': `time clock
`,
  'rosgraph_msgs/Log': `byte DEBUG=1
byte INFO=2
byte WARN=4
byte ERROR=8
byte FATAL=16
Header header
byte level
string name
string msg
string file
string function
uint32 line
string[] topics
`,
  'visualization_msgs/Marker': `uint8 ARROW=0
uint8 CUBE=1
uint8 SPHERE=2
uint8 CYLINDER=3
uint8 LINE_STRIP=4
uint8 LINE_LIST=5
uint8 CUBE_LIST=6
uint8 SPHERE_LIST=7
uint8 POINTS=8
uint8 TEXT_VIEW_FACING=9
uint8 MESH_RESOURCE=10
uint8 TRIANGLE_LIST=11
uint8 ADD=0
uint8 MODIFY=0
uint8 DELETE=2
uint8 DELETEALL=3
Header header
string ns
int32 id
int32 type
int32 action
geometry_msgs/Pose pose
geometry_msgs/Vector3 scale
std_msgs/ColorRGBA color
duration lifetime
bool frame_locked
geometry_msgs/Point[] points
std_msgs/ColorRGBA[] colors
string text
string mesh_resource
bool mesh_use_embedded_materials
`,
  'visualization_msgs/MarkerArray': `Marker[] markers
`,
  // rosapi's description of one message type (message_details and the service details).
  'rosapi/TypeDef': `string type
string[] fieldnames
string[] fieldtypes
int32[] fieldarraylen
string[] examples
string[] constnames
string[] constvalues
`,
};

/**
 * Service definitions by full type name: the request, `---`, the response. The rosapi types
 * carry only the fields this server fills.
 */
export const SERVICE_DEFINITIONS: Readonly<Record<string, string>> = {
  'std_srvs/Trigger': `---
bool success
string message
`,
  // TerraWheel's own: advance a lockstep world by n steps; the response says where it stands.
  'terrawheel_msgs/Step': `# Steps to take (1 to 100000).
uint32 n
---
bool success
string message
# The world's step count and simulated time after the steps.
uint64 step
float64 time
# Hash of the world's full state after the steps (16 hex digits), as the headless API's stateHash().
string state_hash
`,
  'rosapi/Topics': `---
string[] topics
string[] types
`,
  'rosapi/TopicsAndRawTypes': `---
string[] topics
string[] types
string[] typedefs_full_text
`,
  'rosapi/TopicType': `string topic
---
string type
`,
  'rosapi/TopicsForType': `string type
---
string[] topics
`,
  'rosapi/Services': `---
string[] services
`,
  'rosapi/ServiceType': `string service
---
string type
`,
  'rosapi/ServicesForType': `string type
---
string[] services
`,
  'rosapi/Nodes': `---
string[] nodes
`,
  'rosapi/NodeDetails': `string node
---
string[] subscribing
string[] publishing
string[] services
`,
  'rosapi/Publishers': `string topic
---
string[] publishers
`,
  'rosapi/Subscribers': `string topic
---
string[] subscribers
`,
  'rosapi/GetTime': `---
time time
`,
  'rosapi/MessageDetails': `string type
---
rosapi/TypeDef[] typedefs
`,
  'rosapi/ServiceRequestDetails': `string type
---
rosapi/TypeDef[] typedefs
`,
  'rosapi/ServiceResponseDetails': `string type
---
rosapi/TypeDef[] typedefs
`,
};
