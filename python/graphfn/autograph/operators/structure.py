"""Checks that two nested structures match, with TF's nest message text."""

from graphfn.util import nest


def _desc(s):
    return "type=%s str=%s" % (type(s).__name__, s)


def _skeleton(s):
    children = nest._children(s)
    if children is None:
        return "."
    inner = ", ".join(_skeleton(c) for c in children)
    if isinstance(s, dict):
        keys = sorted(s, key=nest._sort_key)
        return "{" + ", ".join("%r: %s" % (k, _skeleton(s[k])) for k in keys) + "}"
    if isinstance(s, list):
        return "[" + inner + "]"
    return "(" + inner + ("," if len(children) == 1 else "") + ")"


def _difference(a, b):
    ca, cb = nest._children(a), nest._children(b)
    if (ca is None) != (cb is None):
        seq, other = (a, b) if ca is not None else (b, a)
        return 'Substructure "%s" is a sequence, while substructure "%s" is not' % (_desc(seq), _desc(other))
    if ca is None:
        return None
    if type(a) is not type(b):
        return "The two namedtuples don't have the same sequence type. First structure %s has type %s, while " \
               "second structure %s has type %s" % (_desc(a), type(a), _desc(b), type(b))
    if len(ca) != len(cb):
        return "The two structures don't have the same number of elements. First structure: %s. Second " \
               "structure: %s" % (_desc(a), _desc(b))
    if isinstance(a, dict) and sorted(a, key=nest._sort_key) != sorted(b, key=nest._sort_key):
        return "The two dictionaries don't have the same set of keys. First structure has keys %s, while " \
               "second structure has keys %s." % (list(a), list(b))
    for x, y in zip(ca, cb):
        d = _difference(x, y)
        if d is not None:
            return d
    return None


def mismatch(a, b):
    """None when `a` and `b` have the same nested structure, else TF's explanation."""
    d = _difference(a, b)
    if d is None:
        return None
    return ("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\nSecond "
            "structure: %s\n\nMore specifically: %s\nEntire first structure:\n%s\nEntire second structure:\n%s"
            % (_desc(a), _desc(b), d, _skeleton(a), _skeleton(b)))
