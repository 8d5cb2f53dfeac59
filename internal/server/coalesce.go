package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"unsafe"
)

// Sending a cached answer in one system call.
//
// net/http writes a response through a 4 KiB buffer: the header and the
// body's first bytes in one write(2), the rest of a larger body in a
// second, so a cached 33 KiB answer costs two system calls and two passes
// of the kernel's TCP path (on loopback, the receiver's processing runs on
// the sender's CPU too), where nginx corks its header and sends the file
// in one. A cache hit of more than a buffer's worth therefore holds the
// connection's writes while net/http writes the answer, then sends what it
// held in one writev(2) (oneWriteConn). Nothing else changes: net/http
// still writes the header, the status, Content-Length and keep-alive as
// it decides; a hold only ever spans one handler's own writes, and
// release always runs before the handler returns.

// oneWriteListener wraps each accepted connection in a oneWriteConn.
type oneWriteListener struct{ net.Listener }

func (l oneWriteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &oneWriteConn{Conn: c}, nil
}

// oneWriteConn is a connection whose writes a handler can hold and send
// as one. It is used by one request at a time (net/http serves a
// connection's requests in turn), so hold, Write and release need no lock.
type oneWriteConn struct {
	net.Conn
	held    bool
	body    []byte      // the bytes being sent, which a held write may point into instead of copying
	pending net.Buffers // the writes held so far
	copied  []byte      // backing store for held writes that had to be copied
	err     error       // the error of the last release, returned by the next write
}

// connKey is the context key under which ConnContext stores the
// request's oneWriteConn.
type connKey struct{}

// withOneWriteConn is the http.Server's ConnContext.
func withOneWriteConn(ctx context.Context, c net.Conn) context.Context {
	if oc, ok := c.(*oneWriteConn); ok {
		return context.WithValue(ctx, connKey{}, oc)
	}
	return ctx
}

// oneWriteConnOf returns the request's connection when it is a
// oneWriteConn (requests served through ListenAndServe), else nil.
func oneWriteConnOf(r *http.Request) *oneWriteConn {
	oc, _ := r.Context().Value(connKey{}).(*oneWriteConn)
	return oc
}

// hold starts holding writes; body is the answer's body, immutable for the
// request's lifetime, so that a write of its bytes is kept by reference.
func (c *oneWriteConn) hold(body []byte) {
	c.held, c.body = true, body
}

// Write holds p while a hold is on, else writes it.
func (c *oneWriteConn) Write(p []byte) (int, error) {
	if !c.held {
		if err := c.err; err != nil {
			c.err = nil
			return 0, err
		}
		return c.Conn.Write(p)
	}
	if len(p) == 0 {
		return 0, nil
	}
	if within(p, c.body) {
		c.pending = append(c.pending, p)
		return len(p), nil
	}
	// net/http reuses its buffer after Write returns: copy. Appending to
	// copied may move it, so the held slices are cut from it at release.
	start := len(c.copied)
	c.copied = append(c.copied, p...)
	c.pending = append(c.pending, c.copied[start:start+len(p):start+len(p)])
	return len(p), nil
}

// within reports whether p lies inside body's bytes.
func within(p, body []byte) bool {
	if len(body) == 0 || len(p) > len(body) {
		return false
	}
	b0 := uintptr(unsafe.Pointer(unsafe.SliceData(body)))
	p0 := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
	return p0 >= b0 && p0+uintptr(len(p)) <= b0+uintptr(len(body))
}

// release ends the hold and sends what it held in one writev. An error is
// kept for the next write, which fails with it, so net/http closes the
// connection as it would have on the write itself.
func (c *oneWriteConn) release() {
	c.held, c.body = false, nil
	if len(c.pending) == 0 {
		return
	}
	// copied may have moved while it grew: the slices cut from it before
	// the last append still point into an older array, which holds the
	// same bytes (append copies them), so they stay valid.
	bufs := c.pending
	_, err := bufs.WriteTo(c.Conn)
	clear(c.pending)
	c.pending = c.pending[:0]
	c.copied = c.copied[:0]
	if err != nil {
		c.err = err
	}
}

// CloseWrite half-closes the connection, as net/http asks of a TCP
// connection before it closes one that sent an error.
func (c *oneWriteConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}

// sendHeld writes status and body through w with c holding the writes,
// then flushes net/http's buffers into the hold and sends it in one
// system call.
func sendHeld(c *oneWriteConn, w http.ResponseWriter, status int, body []byte) {
	c.hold(body)
	defer c.release()
	w.WriteHeader(status)
	w.Write(body)
	http.NewResponseController(w).Flush()
}
