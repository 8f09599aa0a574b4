// chapter_tiny/team.hpp: threads that stay for a whole run and share out rows of work.
//
//   Team team(threads);   // threads - 1 helper threads; the caller's own thread is member 0
//   team.run(rows, [&](int member, long row) { ... });  // each row once; returns when all are done
//
// Member m takes rows m, m + n, m + 2n, ... (n members), each in increasing
// order. Starting threads once, rather than for every batch, saves their
// start-up on every step of a training run. Between rounds a waiting thread
// first keeps checking for a while (SPIN) before it sleeps: waking a sleeping
// thread can take a millisecond on a virtual machine, longer than the work
// between two rounds of a training step.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

class Team {
public:
    using Job = std::function<void(int member, long row)>;

    explicit Team(int size) : size_(size < 1 ? 1 : size) {
        for (int member = 1; member < size_; member++) helpers_.emplace_back([this, member] { serve(member); });
    }
    ~Team() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            quit_ = true;
        }
        wake_.notify_all();
        for (std::thread& helper : helpers_) helper.join();
    }
    Team(const Team&) = delete;
    Team& operator=(const Team&) = delete;

    int size() const { return size_; }

    void run(long rows, const Job& job) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            rows_ = rows;
            busy_.store(size_ - 1);
            round_.store(round_.load() + 1);
        }
        wake_.notify_all();
        work(0, job, rows);
        wait_for([this] { return busy_.load() == 0; }, done_);
    }

private:
    static constexpr std::chrono::milliseconds SPIN{2};

    void work(int member, const Job& job, long rows) const {
        for (long row = member; row < rows; row += size_) job(member, row);
    }

    // Waits until ready() holds: checks it for up to SPIN, then sleeps on `woken`.
    template <class Ready>
    void wait_for(Ready ready, std::condition_variable& woken) {
        const auto until = std::chrono::steady_clock::now() + SPIN;
        while (!ready()) {
            if (std::chrono::steady_clock::now() > until) {
                std::unique_lock<std::mutex> lock(mutex_);
                woken.wait(lock, ready);
                return;
            }
            std::this_thread::yield();
        }
    }

    void serve(int member) {
        long seen = 0;  // the last round this member worked on
        for (;;) {
            wait_for([&] { return quit_.load() || round_.load() != seen; }, wake_);
            const Job* job;
            long rows;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (quit_) return;
                seen = round_.load();
                job = job_;
                rows = rows_;
            }
            work(member, *job, rows);
            if (busy_.fetch_sub(1) == 1) {
                std::lock_guard<std::mutex> lock(mutex_);  // so the wait in run cannot miss it
                done_.notify_one();
            }
        }
    }

    const int size_;
    std::vector<std::thread> helpers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const Job* job_ = nullptr;
    long rows_ = 0;
    std::atomic<long> round_{0};
    std::atomic<int> busy_{0};
    std::atomic<bool> quit_{false};
};
