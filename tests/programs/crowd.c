/* A server-like program with 80 worker threads, each waiting on its own job queue. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define WORKERS 80

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jobs = PTHREAD_COND_INITIALIZER;
static int started = 0;

static void *worker(void *arg) {
    pthread_mutex_lock(&lock);
    started++;
    for (;;)
        pthread_cond_wait(&jobs, &lock);
    return arg;
}

int main(void) {
    pthread_t threads[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&threads[i], NULL, worker, (void *)i);
    for (;;) {
        pthread_mutex_lock(&lock);
        int ready = started;
        pthread_mutex_unlock(&lock);
        if (ready == WORKERS)
            break;
        usleep(1000);
    }
    printf("serving with %d workers\n", WORKERS); // marker: serving
    fflush(stdout);
    return 0;
}
