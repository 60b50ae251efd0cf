// A benchmark peer on Go's gorilla/websocket (Debian's golang-github-gorilla-websocket-dev): the library under
// Nakama, driven by the same wordrooms-bots runs as the WordRooms server.
//
//	/echo          every message back as it came (text as text, binary as binary)
//	/fanout/NAME   a topic per path: every message a client sends goes to every client of the topic, the sender
//	               included, framed once (websocket.PreparedMessage) and written to each member
//	anything else  HTTP 404
//
// Usage: gorilla-peer [-host 127.0.0.1] [-port 0]
// Prints "listening on HOST:PORT" on its first stdout line (the real port with -port 0); stops on SIGTERM and
// SIGINT. Runs on one OS thread for Go code (GOMAXPROCS=1 unless the environment sets it), as the other
// servers of the benchmarks run on one event-loop thread. The library's defaults are kept (no compression,
// 4 KiB read and write buffers), except the message size limit (16 MiB, as the other peers).
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"github.com/gorilla/websocket"
)

const fanoutPrefix = "/fanout/"
const maxMessageBytes = 16 << 20

var upgrader = websocket.Upgrader{
	// The bots send no Origin; a benchmark peer takes any.
	CheckOrigin: func(*http.Request) bool { return true },
}

// member is one connection of a topic; gorilla allows one writer at a time, and room-mates write to it from
// their own goroutines.
type member struct {
	conn  *websocket.Conn
	write sync.Mutex
}

type topic struct {
	name    string
	lock    sync.Mutex
	members []*member
}

var topics = struct {
	sync.Mutex
	byName map[string]*topic
}{byName: map[string]*topic{}}

func join(name string, m *member) *topic {
	topics.Lock()
	defer topics.Unlock()
	t := topics.byName[name]
	if t == nil {
		t = &topic{name: name}
		topics.byName[name] = t
	}
	t.lock.Lock()
	t.members = append(t.members, m)
	t.lock.Unlock()
	return t
}

func leave(t *topic, m *member) {
	topics.Lock()
	defer topics.Unlock()
	t.lock.Lock()
	for i, other := range t.members {
		if other == m {
			t.members = append(t.members[:i], t.members[i+1:]...)
			break
		}
	}
	empty := len(t.members) == 0
	t.lock.Unlock()
	if empty && topics.byName[t.name] == t {
		delete(topics.byName, t.name)
	}
}

func (t *topic) broadcast(message *websocket.PreparedMessage) {
	t.lock.Lock()
	members := append([]*member(nil), t.members...)
	t.lock.Unlock()
	for _, m := range members {
		m.write.Lock()
		// A member that has gone returns an error here; its own reader removes it.
		_ = m.conn.WritePreparedMessage(message)
		m.write.Unlock()
	}
}

func serveEcho(conn *websocket.Conn) {
	for {
		kind, data, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if conn.WriteMessage(kind, data) != nil {
			return
		}
	}
}

func serveFanout(conn *websocket.Conn, name string) {
	m := &member{conn: conn}
	t := join(name, m)
	defer leave(t, m)
	for {
		kind, data, err := conn.ReadMessage()
		if err != nil {
			return
		}
		message, err := websocket.NewPreparedMessage(kind, data)
		if err != nil {
			return
		}
		t.broadcast(message)
	}
}

func handle(w http.ResponseWriter, r *http.Request) {
	name := ""
	if strings.HasPrefix(r.URL.Path, fanoutPrefix) {
		name = r.URL.Path[len(fanoutPrefix):]
	}
	if r.URL.Path != "/echo" && name == "" {
		http.NotFound(w, r)
		return
	}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	conn.SetReadLimit(maxMessageBytes)
	if name == "" {
		serveEcho(conn)
	} else {
		serveFanout(conn, name)
	}
}

// raiseFileLimit takes the hard limit of open files, as the other servers do: every connection is one.
func raiseFileLimit() uint64 {
	var limit syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit) == nil && limit.Cur < limit.Max {
		limit.Cur = limit.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &limit)
	}
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit)
	return limit.Cur
}

func main() {
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 8765, "TCP port, 0 for any free port")
	flag.Parse()
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	files := raiseFileLimit()
	listener, err := net.Listen("tcp", net.JoinHostPort(*host, fmt.Sprint(*port)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gorilla-peer:", err)
		os.Exit(1)
	}
	fmt.Printf("listening on %s (%s, GOMAXPROCS %d, open-files limit %d)\n", listener.Addr(), runtime.Version(),
		runtime.GOMAXPROCS(0), files)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		os.Exit(0)
	}()
	_ = http.Serve(listener, http.HandlerFunc(handle))
}
