package main

import (
	"runtime"
	"runtime/debug"
)

// firstCycleGOGC is the collector's setting until its first cycle: with
// it the first cycle comes when the heap reaches about 16 MB instead of
// 4 MB.
const firstCycleGOGC = 400

// gcSentinel is an object whose finalizer runs after the first collection
// (it holds a pointer, so it is not packed with other small objects).
type gcSentinel struct {
	_ *byte
	_ [16]byte
}

// delayFirstCycle moves the garbage collector's first cycle from a 4 MB
// heap to about 16 MB, then gives it back its setting (a finalizer run
// after that cycle), as the Go compiler does for its own short runs. A
// query on the embedded catalog peaks at a few MB and exits: the cycle at
// 4 MB cost `recommend` about 140 page faults and 3 ms of its 35, and
// freed memory it was about to exit with. Later cycles run as GOGC says
// (100 by default). main calls it for queries only: a server, watcher or
// import keeps the collector's setting from the start, since under load
// the finalizer that restores it may run a few cycles late (a 10^6-offer
// SkyPilot import peaked 30 MB higher). A GOGC set by the user is left
// alone.
func delayFirstCycle(gogcSet bool) {
	if gogcSet {
		return
	}
	prev := debug.SetGCPercent(firstCycleGOGC)
	runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) { debug.SetGCPercent(prev) })
}
