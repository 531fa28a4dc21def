// Thesis Figure 4.1(a): two tellers, deposits and withdrawals on one bank account, each
// critical section enclosed in P(mutex) / V(mutex) on a semaphore. No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static sem_t mutex;
static double balance = 100.0;
static double interest = 0.0;
static const double rate = 0.01;

static double read_amount(int i) {
    return 10.0 + (i % 7);
}

static void* deposit(void* arg) {
    (void)arg;
    for (int i = 0; i < 20; ++i) {
        double amount = read_amount(i);
        sem_wait(&mutex); /* P(mutex) */
        balance += amount;
        interest += rate * balance;
        sem_post(&mutex); /* V(mutex) */
    }
    return NULL;
}

static void* withdraw(void* arg) {
    (void)arg;
    for (int i = 0; i < 20; ++i) {
        double amount = read_amount(i + 3);
        sem_wait(&mutex);
        if (balance < amount)
            printf("NSF\n");
        else {
            balance -= amount;
            interest += rate * balance;
        }
        sem_post(&mutex);
    }
    return NULL;
}

int main(void) {
    sem_init(&mutex, 0, 1);
    pthread_t t1, t2;
    pthread_create(&t1, NULL, deposit, NULL);
    pthread_create(&t2, NULL, withdraw, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("balance %.2f interest %.2f\n", balance, interest);
    return 0;
}
