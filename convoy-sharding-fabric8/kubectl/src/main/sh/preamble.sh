#!/bin/sh
exec java $KUBECTL_CONVOY_JAVA_OPTS -jar "$0" "$@"
