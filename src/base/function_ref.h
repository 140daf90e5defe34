// FunctionRef<R(Args...)>: a non-owning reference to something callable, for parameters that
// are called during the call and never kept (C++26's std::function_ref, absl::FunctionRef).
//
// Why not const std::function&: building a std::function from a lambda that captures more than
// two pointers allocates on the heap, and calling it goes through a manager as well as the
// invoker; a unit of work builds one per timed step. A FunctionRef is two pointers and one
// indirect call. Measured with callgrind on point selects (bench/driver_instructions.sh): about
// 200 fewer instructions per step (malloc, free and the std::function manager).
//
// The referenced callable must outlive the FunctionRef: pass a lambda straight into the call,
// never store a FunctionRef past it.
#ifndef STOREBENCH_BASE_FUNCTION_REF_H_
#define STOREBENCH_BASE_FUNCTION_REF_H_

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace sb {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  // Implicit, so that a lambda (or a std::function) is passed as it is; the constraint keeps it
  // from taking a FunctionRef, whose copies stay the trivial ones.
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
           std::is_invocable_r_v<R, F&, Args...>)
      // NOLINTNEXTLINE(google-explicit-constructor,bugprone-forwarding-reference-overload)
      FunctionRef(F&& f)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return std::invoke(*static_cast<std::remove_reference_t<F>*>(object),
                             std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace sb

#endif  // STOREBENCH_BASE_FUNCTION_REF_H_
