#!/usr/bin/env python3
# vm/bench/code-pages.py IDLE BUSY EDGES - the 4 KiB code pages a watched edge runs through, by
# object: pages whose instruction count grew by at least EDGES from the idle run to the busy one, in
# two callgrind files of vm/bench/instructions.sh made with --dump-instr=yes:
#
#   VM_MEM=1G CALLGRIND_OPTIONS=--dump-instr=yes VM_PASSENV=CALLGRIND_OPTIONS \
#       bash vm/run.sh vm/bench/instructions.sh BINARY 100
#   python3 vm/bench/code-pages.py .build-vmtest/cg/ours.0 .build-vmtest/cg/ours.100 100
#
# Under TCG each page an event touches after a context switch costs a translation lookup
# (docs/performance.md, "Where the time goes").
import sys, re, collections
def load(path):
    pages = collections.Counter(); objs = {}
    obj = None; last = 0; names = {}
    incall = False
    for line in open(path):
        if line.startswith('ob='):
            m = re.match(r'ob=\((\d+)\)(?: (.*))?', line)
            if m.group(2): names[m.group(1)] = m.group(2).strip()
            obj = names.get(m.group(1))
            continue
        if line.startswith('cob='):
            m = re.match(r'cob=\((\d+)\)(?: (.*))?', line)
            if m.group(2): names[m.group(1)] = m.group(2).strip()
            continue
        if line.startswith('calls='):
            incall = True; continue
        m = re.match(r'(0x[0-9a-f]+|\+\d+|-\d+|\*)\s+(\S+)\s+(\d+)', line)
        if not m: continue
        a = m.group(1)
        addr = int(a, 16) if a.startswith('0x') else last + int(a) if a[0] in '+-' else last
        last = addr
        if incall: incall = False; continue  # the inclusive cost of a call
        page = ((obj or '?').split('/')[-1], addr >> 12)
        pages[page] += int(m.group(3)); objs[page] = page[0]
    return pages, objs
a, _ = load(sys.argv[1]); b, objs = load(sys.argv[2]); n = int(sys.argv[3])
touched = [p for p in b if b[p] - a.get(p, 0) >= n]
byobj = collections.Counter(objs[p] for p in touched)
print('%d code pages per edge: %s' % (len(touched), ', '.join('%s %d' % kv for kv in byobj.most_common())))
