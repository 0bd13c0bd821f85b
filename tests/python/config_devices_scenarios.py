"""Scripts for test_config_devices.py: each runs in a fresh process (tf.config's device state is
fixed once the runtime initializes) with the module to test as argv[1], and prints one line per
check. config_devices_goldens.json holds what they printed under TensorFlow 2.21
(record_config_devices_goldens.py)."""

import os
import subprocess
import sys

COMMON = '''
import sys
tf = __import__(sys.argv[1])
def show(label, fn):
    try:
        print(label, "->", repr(fn()))
    except BaseException as e:
        print(label, "!!", type(e).__name__, repr(str(e)))
cpu = tf.config.list_physical_devices("CPU")[0]
LDC = tf.config.LogicalDeviceConfiguration
'''

SCENARIOS = {
"listing": '''
show("physical", tf.config.list_physical_devices)
show("physical CPU", lambda: tf.config.list_physical_devices("CPU"))
show("physical GPU", lambda: tf.config.list_physical_devices("GPU"))
show("fields", lambda: (cpu.name, cpu.device_type, cpu[0], type(cpu).__name__, isinstance(cpu, tuple)))
show("aliases", lambda: (tf.config.experimental.list_physical_devices is tf.config.list_physical_devices,
                         tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration))
show("visible", tf.config.get_visible_devices)
show("visible GPU", lambda: tf.config.experimental.get_visible_devices("GPU"))
show("logical config", lambda: tf.config.get_logical_device_configuration(cpu))
show("details", lambda: tf.config.experimental.get_device_details(cpu))
show("soft", tf.config.get_soft_device_placement)
show("log", tf.debugging.get_log_device_placement)
show("LDC", LDC)
show("LDC fields", lambda: LDC(memory_limit=10)._fields)
show("built", lambda: (tf.test.is_built_with_cuda(), tf.test.is_built_with_rocm(), tf.test.is_built_with_gpu_support()))
show("gpu name", tf.test.gpu_device_name)
show("logical", tf.config.list_logical_devices)
show("logical GPU", lambda: tf.config.experimental.list_logical_devices("GPU"))
show("logical fields", lambda: (tf.config.list_logical_devices()[0].name, type(tf.config.list_logical_devices()[0]).__name__))
x = tf.constant([1.0, 2.0])
show("tensor device", lambda: (x.device, (x + 1).device, tf.Variable(1.0).device))
show("soft off", lambda: (tf.config.set_soft_device_placement(0), tf.config.get_soft_device_placement()))
show("soft on", lambda: (tf.config.set_soft_device_placement(1), tf.config.get_soft_device_placement()))
''',
"boilerplate": '''
gpus = tf.config.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
tf.config.set_visible_devices([], "GPU")
show("visible", tf.config.get_visible_devices)
x = tf.constant(1.0)
show("again", lambda: tf.config.set_visible_devices([], "GPU"))
show("same CPUs", lambda: tf.config.set_visible_devices([cpu]))
show("hide CPU late", lambda: tf.config.set_visible_devices([], "CPU"))
show("split late", lambda: tf.config.set_logical_device_configuration(cpu, [LDC(), LDC()]))
show("logical", tf.config.list_logical_devices)
''',
"bad_arguments": '''
fake = tf.config.PhysicalDevice(name="/physical_device:GPU:0", device_type="GPU")
show("growth CPU", lambda: tf.config.experimental.set_memory_growth(cpu, True))
show("get growth CPU", lambda: tf.config.experimental.get_memory_growth(cpu))
show("growth fake", lambda: tf.config.experimental.set_memory_growth(fake, True))
show("get growth fake", lambda: tf.config.experimental.get_memory_growth(fake))
show("growth str", lambda: tf.config.experimental.set_memory_growth("/physical_device:CPU:0", True))
show("details fake", lambda: tf.config.experimental.get_device_details(fake))
show("details str", lambda: tf.config.experimental.get_device_details("CPU"))
show("visible fake", lambda: tf.config.set_visible_devices(fake))
show("visible CPU as GPU", lambda: tf.config.set_visible_devices([cpu], "GPU"))
show("split memory", lambda: tf.config.set_logical_device_configuration(cpu, [LDC(memory_limit=100)]))
show("split priority", lambda: tf.config.set_logical_device_configuration(cpu, [LDC(experimental_priority=1)]))
show("split ordinal", lambda: tf.config.set_logical_device_configuration(cpu, [LDC(experimental_device_ordinal=1)]))
show("split fake", lambda: tf.config.set_logical_device_configuration(fake, [LDC()]))
show("get split fake", lambda: tf.config.get_logical_device_configuration(fake))
show("device int", lambda: tf.device(3).__enter__())
show("device function", lambda: tf.device(lambda op: "/CPU:0"))
for spec in ["/XLA_CPU:0", "/foo", "foo", "/CPU:a", "/device:CPU", "/CPU:0:1",
             "/job:a/device:CPU:0/device:GPU:1", "/replica:x"]:
    def enter(spec=spec):
        with tf.device(spec):
            pass
    show("device %r" % spec, enter)
show("growth after split", lambda: (tf.config.set_logical_device_configuration(cpu, [LDC(), LDC()]),
                                    tf.config.experimental.set_memory_growth(cpu, True)))
''',
"split_cpu": '''
show("split", lambda: tf.config.set_logical_device_configuration(cpu, [LDC(), LDC(), LDC()]))
show("get split", lambda: tf.config.experimental.get_virtual_device_configuration(cpu))
show("logical", tf.config.list_logical_devices)
show("split again", lambda: tf.config.set_logical_device_configuration(cpu, [LDC(), LDC()]))
show("split same", lambda: tf.config.set_logical_device_configuration(cpu, [LDC(), LDC(), LDC()]))
x = tf.constant(1.0)
def on(spec, soft=True):
    tf.config.set_soft_device_placement(soft)
    try:
        with tf.device(spec):
            y = x + 1
            return y.device, tf.constant(2.0).device, tf.Variable(1.0).device, (y * 2).device
    finally:
        tf.config.set_soft_device_placement(True)
for spec in ["/CPU:1", "/device:CPU:2", "/job:localhost/replica:0/task:0/device:CPU:1", "/CPU:3", "/GPU:0", "cpu:1"]:
    show(spec, lambda: on(spec))
show("/CPU:3 hard", lambda: on("/CPU:3", False))
show("/CPU:2 hard", lambda: on("/CPU:2", False))
def nest():
    with tf.device("/CPU:1"):
        with tf.device("/job:localhost"):
            a = (x + 1).device
        with tf.device(None):
            b = (x + 1).device
        with tf.device(""):
            c = (x + 1).device
        with tf.device("/CPU:2"):
            d = (x + 1).device
    return a, b, c, d, (x + 1).device
show("nested", nest)
''',
"placement": '''
x = tf.constant(1.0)
def on(spec, soft=True):
    tf.config.set_soft_device_placement(soft)
    try:
        with tf.device(spec):
            y = x + 1
            return y.device, tf.constant(2.0).device, tf.Variable(1.0).device
    finally:
        tf.config.set_soft_device_placement(True)
for spec in ["/CPU:0", "/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0", "/GPU:0", "CPU:0", "cpu:0",
             "/cpu:0", "/CPU:1", "/TPU:0", "/gpu:0", "GPU", "", None, "/device:CPU:*", "/CPU", "/task:0", "//CPU:0",
             "/job:localhost/replica:0/task:0/device:GPU:0", "/job:worker", "/job:localhost/task:1/device:CPU:0",
             "/replica:1", tf.DeviceSpec(device_type="CPU", device_index=0)]:
    show(repr(spec), lambda: on(spec))
show("/CPU:0 hard", lambda: on("/CPU:0", False))
show("/CPU:1 hard", lambda: on("/CPU:1", False))
def variable_on_gpu():
    tf.config.set_soft_device_placement(False)
    try:
        with tf.device("/GPU:0"):
            return tf.Variable(3.0)
    finally:
        tf.config.set_soft_device_placement(True)
show("variable /GPU:0 hard", variable_on_gpu)
def matmul_on_gpu():
    tf.config.set_soft_device_placement(False)
    try:
        with tf.device("/GPU:0"):
            return tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]))
    finally:
        tf.config.set_soft_device_placement(True)
show("matmul /GPU:0 hard", matmul_on_gpu)
def scope_value():
    with tf.device("/CPU:0") as s:
        return s
show("as value", scope_value)
''',
"hidden_cpu": '''
show("hide", lambda: tf.config.set_visible_devices([], "CPU"))
show("visible", tf.config.get_visible_devices)
show("constant", lambda: tf.constant(1.0))
show("logical", tf.config.list_logical_devices)
show("show again", lambda: tf.config.set_visible_devices([cpu], "CPU"))
show("constant", lambda: tf.constant(1.0).device)
show("hide late", lambda: tf.config.set_visible_devices([], "CPU"))
''',
"graph_devices": '''
x = tf.constant(1.0)
@tf.function
def f(a):
    with tf.device("/CPU:0"):
        b = a + 1
        with tf.device("/GPU:1"):
            c = b * 2
            with tf.device(None):
                d = c - 1
    e = d / 2
    with tf.device("device:CPU:0"):
        with tf.device("/job:localhost"):
            g = a * 5
    print("traced", repr(b.device), repr(b.op.device), repr(c.device), repr(d.device), repr(e.device),
          repr(a.device), repr(g.device))
    return e
show("f", lambda: f(x).numpy())
g = tf.Graph()
with g.as_default():
    with g.device("/GPU:0"):
        c = tf.constant(1.0)
    with tf.device("/CPU:0"):
        d = c + 1
    e = d * 2
show("tf.Graph", lambda: (c.device, c.op.device, d.device, e.device))
''',
"device_spec": '''
show("from_string", lambda: tf.DeviceSpec.from_string("/job:localhost/replica:0/task:0/device:CPU:0"))
d = tf.DeviceSpec.from_string("/GPU:1")
show("parts", lambda: (d, d.to_string(), d.device_type, d.device_index, d.job, d.replica, d.task))
show("replace", lambda: d.replace(job="w").to_string())
show("merged", lambda: d.make_merged_spec(tf.DeviceSpec(job="a", device_type="CPU")).to_string())
show("constructor", lambda: tf.DeviceSpec(job="a", replica=1, task=2, device_type="cpu", device_index=3).to_string())
show("eq", lambda: (tf.DeviceSpec() == tf.DeviceSpec(), hash(tf.DeviceSpec(job="a")) == hash(tf.DeviceSpec(job="a")),
                    tf.DeviceSpec(job="a") == tf.DeviceSpec(job="b")))
show("parse_from_string", lambda: tf.DeviceSpec(job="a").parse_from_string("/GPU:0").to_string())
for s in ["/device:GPU:*", "/gpu:*", "/CPU:-1", "/job:a/job:b", "job:a", "/job:a/", "/device:cpu:0",
          "/device:MY_DEV:0", "/job:a/replica:1/task:2/CPU:3", "", "/job:a/device:CPU:0/device:GPU:1",
          "/replica:x", "/a:b:c"]:
    show(repr(s), lambda: tf.DeviceSpec.from_string(s).to_string())
''',
}


def run(name, python=sys.executable, module="graphfn"):
    """What scenario `name` prints, run by `python` with `module` as tf."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    result = subprocess.run([python, "-c", COMMON + SCENARIOS[name], module], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout
