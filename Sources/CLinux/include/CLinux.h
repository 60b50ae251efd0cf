// Linux system headers that Swift's Glibc module does not expose (epoll, eventfd, signalfd).
#ifndef WORDROOMS_CLINUX_H
#define WORDROOMS_CLINUX_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/tcp.h>
#include <sys/random.h>

/// accept4(2): accepts with SOCK_NONBLOCK/SOCK_CLOEXEC set in one call.
int clinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

#endif
