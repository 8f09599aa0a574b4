#!/bin/sh
# make cross's runner for Windows programs: run_wine.sh PROGRAM ARGS... runs
# PROGRAM.exe under Wine (the tests name programs as on Linux, without .exe).
# exec, so the program keeps this script's process id: a test that kills it
# kills the program.
program=$1
shift
exec wine "$program.exe" "$@"
