"""Protobuf message classes built from tables, each file in a descriptor pool of its own.

graphfn reads and writes TensorFlow's wire formats (tf.train.Example, checkpoints, event files)
with real protobuf messages that carry TF's field numbers, so the bytes and the text form are
TF's. Each module declares its messages as tables and gets the classes here: no generated code,
and a pool apart from protobuf's default one, so a process that also imports TensorFlow (whose
default pool already holds "tensorflow.Example" & co.) sees no clash. Importing protobuf costs
about 0.1 s: the modules that use this one are imported on first use."""

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

FIELD = descriptor_pb2.FieldDescriptorProto  # the TYPE_* constants of the tables
OPTIONAL, REPEATED = FIELD.LABEL_OPTIONAL, FIELD.LABEL_REPEATED


def message_classes(file_name, package, messages, oneofs=None, map_entries=(), enums=None):
    """{message name: class} for the proto3 file these tables describe.

    messages: [(name, [(field, number, label, type, type name or None, oneof index or None)])],
      a nested message named "Outer.Inner" and listed after its outer one;
    oneofs: {message name: [oneof names]};
    map_entries: [(outer message, entry name, value message or None for string values)], the
      entry messages of map fields (string keys);
    enums: {enum name ("Outer.Inner" when nested): [(value name, number)]}."""
    f = descriptor_pb2.FileDescriptorProto(name=file_name, package=package, syntax="proto3")

    def full(type_name):
        return None if type_name is None else "." + package + "." + type_name

    declared = {}
    for name, fields in messages:
        outer, _, leaf = name.rpartition(".")
        message = (declared[outer].nested_type if outer else f.message_type).add(name=leaf)
        declared[name] = message
        for oneof in (oneofs or {}).get(name, []):
            message.oneof_decl.add(name=oneof)
        for field_name, number, label, type_, type_name, oneof in fields:
            _add_field(message, field_name, number, label, type_, full(type_name), oneof)
    for outer, entry_name, value_type in map_entries:
        entry = declared[outer].nested_type.add(name=entry_name)
        entry.options.map_entry = True
        _add_field(entry, "key", 1, OPTIONAL, FIELD.TYPE_STRING)
        _add_field(entry, "value", 2, OPTIONAL, FIELD.TYPE_MESSAGE if value_type else FIELD.TYPE_STRING,
                   full(value_type))
    for name, values in (enums or {}).items():
        outer, _, leaf = name.rpartition(".")
        enum = (declared[outer].enum_type if outer else f.enum_type).add(name=leaf)
        for value_name, number in values:
            enum.value.add(name=value_name, number=number)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(package + "." + name))
            for name, _ in messages}


def _add_field(message, name, number, label, type_, type_name=None, oneof=None):
    field = message.field.add(name=name, number=number, label=label, type=type_,
                              json_name="".join(p if i == 0 else p.capitalize() for i, p in enumerate(name.split("_"))))
    if type_name is not None:
        field.type_name = type_name
    if oneof is not None:
        field.oneof_index = oneof
