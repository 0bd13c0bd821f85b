// Deferred tf.print output: written in order, when the outermost scope closes.
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <iostream>

#include "harness.h"

#include "graphfn/kernels/deferred_output.h"

using namespace graphfn;

namespace {

// Points fds 1 and 2 at one temporary file while alive; contents() reads what reached it.
class CapturedFds {
 public:
  CapturedFds() {
    std::cout.flush();
    std::fflush(nullptr);
    file_ = std::tmpfile();
    REQUIRE(file_ != nullptr);
    saved_out_ = ::dup(1);
    saved_err_ = ::dup(2);
    ::dup2(::fileno(file_), 1);
    ::dup2(::fileno(file_), 2);
  }
  ~CapturedFds() {
    ::dup2(saved_out_, 1);
    ::dup2(saved_err_, 2);
    ::close(saved_out_);
    ::close(saved_err_);
    std::fclose(file_);
  }
  std::string contents() const {
    std::string text;
    char buf[256];
    std::rewind(file_);
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) text.append(buf, n);
    return text;
  }

 private:
  FILE* file_ = nullptr;
  int saved_out_ = -1, saved_err_ = -1;
};

// Sets the quiet spell / age limit for one test (no test depends on timing).
class MaxAge {
 public:
  explicit MaxAge(int64_t ns) : old_(set_output_max_age_ns(ns)) {}
  ~MaxAge() { set_output_max_age_ns(old_); }

 private:
  int64_t old_;
};

constexpr int64_t kForever = INT64_MAX;

}  // namespace

TEST_CASE("output is written at once outside a scope, deferred inside one", "[runtime][output]") {
  CapturedFds fds;
  MaxAge never(kForever);
  REQUIRE(write_output(2, "eager", "\n").ok());
  CHECK(fds.contents() == "eager\n");
  {
    DeferredOutputScope outer;
    REQUIRE(write_output(2, "a", "\n").ok());
    {
      DeferredOutputScope inner;  // a run inside a run
      REQUIRE(write_output(2, "b", "\n").ok());
      REQUIRE(inner.close().ok());
    }
    CHECK(fds.contents() == "eager\n");  // still pending
    REQUIRE(outer.close().ok());
    CHECK(fds.contents() == "eager\na\nb\n");
  }
}

TEST_CASE("deferred output keeps the order of writes to different fds", "[runtime][output]") {
  CapturedFds fds;
  MaxAge never(kForever);
  {
    DeferredOutputScope scope;
    REQUIRE(write_output(1, "out1", "\n").ok());
    REQUIRE(write_output(2, "err", "\n").ok());  // switching fds writes out1 first
    REQUIRE(write_output(1, "out2", "\n").ok());
    CHECK(fds.contents() == "out1\nerr\n");
  }  // the destructor flushes too (a run stopped by an error)
  CHECK(fds.contents() == "out1\nerr\nout2\n");
  {
    DeferredOutputScope scope;
    REQUIRE(write_output(2, "pending", "\n").ok());
    REQUIRE(flush_output().ok());  // e.g. before a print to a file
    CHECK(fds.contents() == "out1\nerr\nout2\npending\n");
  }
}

TEST_CASE("a print after a quiet spell, or past the age limit, is written at once", "[runtime][output]") {
  CapturedFds fds;
  MaxAge always(0);  // every print comes after a quiet spell
  DeferredOutputScope scope;
  REQUIRE(write_output(2, "first", "\n").ok());
  REQUIRE(write_output(1, "second", "\n").ok());
  CHECK(fds.contents() == "first\nsecond\n");
}

namespace {

std::string listened;  // what the test listener took
bool take_text(std::string_view text) {
  listened.append(text);
  return true;
}
bool refuse_text(std::string_view) { return false; }

// Installs a listener for one test.
class Listener {
 public:
  explicit Listener(OutputListener listener) { set_output_listener(listener); }
  ~Listener() { set_output_listener(nullptr); }
};

}  // namespace

TEST_CASE("an output listener takes stdout/stderr text, batched as the descriptors would be", "[runtime][output]") {
  CapturedFds fds;
  MaxAge never(kForever);
  listened.clear();
  {
    Listener listener(&take_text);
    REQUIRE(write_output(2, "eager", "\n").ok());
    CHECK(listened == "eager\n");
    DeferredOutputScope scope;
    REQUIRE(write_output(1, "a", "\n").ok());
    REQUIRE(write_output(2, "b", "\n").ok());
    CHECK(listened == "eager\na\n");  // switching streams passes the pending text on
    REQUIRE(scope.close().ok());
    CHECK(listened == "eager\na\nb\n");
  }
  CHECK(fds.contents().empty());  // nothing reached the descriptors
  {
    Listener listener(&refuse_text);  // a listener that cannot take text: the descriptor gets it
    REQUIRE(write_output(1, "fallback", "\n").ok());
  }
  REQUIRE(write_output(2, "after", "\n").ok());  // no listener: the descriptor again
  CHECK(fds.contents() == "fallback\nafter\n");
}
