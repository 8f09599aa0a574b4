#!/usr/bin/env bash
# tests/grader/sandbox.sh: how grade.sh runs the student's build and program
# (tests/grader/README.md, "The sandbox", says what each mode isolates).
#
#   sandbox.sh probe                  the mode this machine allows: bwrap-uid, uid, bwrap or none
#                                     (GRADER_SANDBOX=MODE chooses one)
#   sandbox.sh run MODE UID BOX DIR CPU MEMORY FILES -- COMMAND...
#                                     COMMAND in DIR, with CPU seconds, MEMORY and FILES KB
#   sandbox.sh kill MODE UID          every process of UID, killed (the uid modes)
set -u

# bubblewrap's arguments: the system read-only, a private /tmp, BOX writable.
bwrap_args() {  # bwrap_args BOX DIR
  local d
  args="--unshare-all --die-with-parent --new-session"
  for d in /usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc/alternatives; do
    if [ -L "$d" ]; then args="$args --symlink $(readlink "$d") $d"
    elif [ -d "$d" ]; then args="$args --ro-bind $d $d"; fi
  done
  args="$args --ro-bind-try /etc/ld.so.cache /etc/ld.so.cache --proc /proc --dev /dev --tmpfs /tmp"
  args="$args --bind $1 $1 --chdir $2 --clearenv --setenv PATH /usr/local/bin:/usr/bin:/bin"
  args="$args --setenv HOME $1 --setenv TMPDIR /tmp --setenv LC_ALL C"
}
as_uid() {  # as_uid UID COMMAND...: a fresh uid and gid, no other groups, no new privileges
  local uid=$1
  shift
  setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs -- "$@"
}

case "${1:-}" in
probe)
  [ -n "${GRADER_SANDBOX:-}" ] && { echo "$GRADER_SANDBOX"; exit 0; }
  # As root the probe's folder is in /tmp, as the box is: TMPDIR's may be closed to the probe's uid.
  probes=${TMPDIR:-/tmp}
  [ "$(id -u)" -eq 0 ] && probes=/tmp
  probe=$(mktemp -d "$probes/sandbox-probe.XXXXXX") || { echo none; exit 0; }
  bwrap_args "$probe" "$probe"
  if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
    chown 65533 "$probe"
    if command -v bwrap > /dev/null && as_uid 65533 bwrap $args -- /bin/sh -c 'echo ok > ok' > /dev/null 2>&1 &&
       [ -f "$probe/ok" ]; then echo bwrap-uid
    else echo uid; fi
  elif command -v bwrap > /dev/null && bwrap $args -- /bin/sh -c 'echo ok > ok' > /dev/null 2>&1 &&
    [ -f "$probe/ok" ]; then
    echo bwrap
  else echo none; fi
  rm -rf "$probe"
  ;;
run)
  [ "$#" -ge 10 ] && [ "${9}" = "--" ] ||
    { echo "usage: sandbox.sh run MODE UID BOX DIR CPU MEMORY FILES -- COMMAND..." >&2; exit 2; }
  mode=$2 uid=$3 box=$4 dir=$5
  ulimit -c 0
  ulimit -t "$6" || exit 2
  ulimit -v "$7" 2> /dev/null || true  # macOS does not enforce it
  ulimit -f "$8" || exit 2
  shift 9
  case "$mode" in bwrap-uid | uid) ulimit -u 256 ;; esac
  case "$mode" in
  bwrap-uid)
    bwrap_args "$box" "$dir"
    exec setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs -- bwrap $args -- "$@" ;;
  uid)
    ulimit -n 256
    cd "$box" || exit 2
    # With mount and pid namespaces: the non-system folders hidden, /tmp, /var/tmp and /dev/shm
    # private and capped, the box bound back in; the program a child, so that its signal is a status.
    if unshare -m -p -f --mount-proc -n true 2> /dev/null; then
      exec unshare -m -p -f --mount-proc -n sh -c '
        box=$1 dir=$2 uid=$3
        shift 3
        mount --make-rprivate / || exit 2
        for d in /*; do
          case "$d" in
          /bin | /dev | /etc | /lib | /lib32 | /lib64 | /libx32 | /proc | /sbin | /sys | /usr) continue ;;
          esac
          [ -d "$d" ] && [ ! -L "$d" ] && { mount -t tmpfs -o size=256m,nr_inodes=4096,mode=1777 tmpfs "$d" || exit 2; }
        done
        mount -t tmpfs -o size=64m,nr_inodes=1024,mode=1777 tmpfs /dev/shm 2> /dev/null
        mkdir -p "$box" /var/tmp && chmod 1777 /var/tmp &&
          mount --no-canonicalize --bind /proc/self/cwd "$box" || exit 2
        cd "$dir" || exit 2
        setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs -- \
          env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$box" TMPDIR=/tmp LC_ALL=C "$@"
        exit $?' sandbox "$box" "$dir" "$uid" "$@"
    fi
    cd "$dir" || exit 2
    exec unshare -n setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs -- \
      env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$box" TMPDIR="$box/tmp" LC_ALL=C "$@" ;;
  bwrap)
    bwrap_args "$box" "$dir"
    exec bwrap $args -- "$@" ;;
  none)
    cd "$dir" || exit 2
    exec env -i PATH="$PATH" HOME="$box" TMPDIR="$box/tmp" LC_ALL=C "$@" ;;
  *) echo "sandbox.sh: no mode '$mode'" >&2; exit 2 ;;
  esac
  ;;
kill)
  case "${2:-}" in
  bwrap-uid | uid)  # never root's own uid: kill -1 as root would stop every process on the machine
    case "${3:-}" in
    '' | 0 | *[!0-9]*) echo "sandbox.sh: kill needs the student's uid, not '${3:-}'" >&2; exit 2 ;;
    esac
    as_uid "$3" kill -9 -1 > /dev/null 2>&1 ;;
  esac
  exit 0 ;;
*)
  echo "usage: sandbox.sh probe | run MODE UID BOX DIR CPU MEMORY FILES -- COMMAND... | kill MODE UID" >&2
  exit 2 ;;
esac
