#!/bin/sh
# Test double for a server (llama-server) that never exits: it prints the
# line `try --expect` waits for, then serves forever.
echo "main: server is listening on http://127.0.0.1:8080"
exec sleep 1000
