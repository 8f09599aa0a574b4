// common/team.hpp: threads that stay for a whole run and share out rows of work.
//
//   Team team(threads);   // threads - 1 helper threads; the caller's own thread is member 0
//   team.run(rows, [&](int member, long row) { ... });  // each row once; returns when all are done
//
// Member m takes rows m, m + n, m + 2n, ... (n members), each in increasing
// order. So a job that must finish its rows in order (row r waits until row
// r - 1 is in) only ever waits for a row that some member is already working
// on. Starting threads once, rather than for every batch, saves their start-up
// on every step of a training run.
#pragma once

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
            busy_ = size_ - 1;
            round_++;
        }
        wake_.notify_all();
        work(0, job, rows);
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return busy_ == 0; });
    }

private:
    void work(int member, const Job& job, long rows) const {
        for (long row = member; row < rows; row += size_) job(member, row);
    }

    void serve(int member) {
        long seen = 0;  // the last round this member worked on
        for (;;) {
            const Job* job;
            long rows;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return quit_ || round_ != seen; });
                if (quit_) return;
                seen = round_;
                job = job_;
                rows = rows_;
            }
            work(member, *job, rows);
            std::lock_guard<std::mutex> lock(mutex_);
            if (--busy_ == 0) done_.notify_one();
        }
    }

    const int size_;
    std::vector<std::thread> helpers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const Job* job_ = nullptr;
    long rows_ = 0, round_ = 0;
    int busy_ = 0;
    bool quit_ = false;
};
