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
// heap to about 16 MB, then gives it back its setting, as the Go compiler
// does for its own short runs. A command on the embedded catalog peaks at
// a few MB and exits: the cycle at 4 MB cost `recommend` about 140 page
// faults and 3 ms of its 35 and freed memory it was about to exit with.
// Every later cycle runs as GOGC says (100 by default), so a command that
// loads a big overlay or import grows its heap as before. A GOGC set by
// the user is left alone.
func delayFirstCycle(gogcSet bool) {
	if gogcSet {
		return
	}
	prev := debug.SetGCPercent(firstCycleGOGC)
	runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) { debug.SetGCPercent(prev) })
}
