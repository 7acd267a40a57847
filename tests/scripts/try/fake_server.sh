#!/bin/sh
# Test double for a server (llama-server) that never exits: it prints the
# line `try --expect` waits for, then serves forever (a child process named
# after $GD_TRY_MARKER, so the test can check that it was stopped).
echo "main: server is listening on http://127.0.0.1:8080"
sh -c 'sleep 1000; :' "${GD_TRY_MARKER:-fake_marker}_server"
