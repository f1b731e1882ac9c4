# tests/vmlab/lib.sh — what every lab scenario shares (source it first: . "$(dirname "$0")/lib.sh").
#   $pts                       this tree's build/ptsbench
#   check NAME STATUS WHY      print "PASS NAME" when STATUS is 0, else "FAIL NAME: WHY"
#   field FILE a.b.c           a JSON value by dotted path ('' when absent; lists by index: a.0.b)
#   md5 DEV                    the md5 of a whole device or file (bytes unchanged checks)
pts=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/ptsbench
check() {
  if [ "$2" = 0 ]; then echo "PASS $1"; else echo "FAIL $1: $3"; fi
}
field() {
  python3 -c "import json,sys
try:
    v=json.load(open(sys.argv[1]))
except Exception:
    v=None
for k in sys.argv[2].split('.'):
    if isinstance(v,dict): v=v.get(k)
    elif isinstance(v,list) and k.isdigit() and int(k)<len(v): v=v[int(k)]
    else: v=None
print('' if v is None else (json.dumps(v) if isinstance(v,(dict,list,bool)) else v))" "$1" "$2"
}
md5() { md5sum < "$1" | cut -d' ' -f1; }
